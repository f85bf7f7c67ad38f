import type picomatchType from 'picomatch';
import { lazyModule } from '../../core/lazy-module.js';

const load = lazyModule<typeof picomatchType>('picomatch');

/** picomatch, loaded at the first glob (most tool calls have none). */
export const picomatch: typeof picomatchType = ((...args: Parameters<typeof picomatchType>) =>
  load()(...args)) as typeof picomatchType;
