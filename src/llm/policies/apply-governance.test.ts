import { describe, expect, it } from 'vitest';
import type { ModelRequest, ToolSpec } from '../../core/types.js';
import { applyGovernance } from './apply-governance.js';

const tool = (name: string): ToolSpec => ({ type: 'function', function: { name } });
const messages = [{ role: 'user' as const, content: 'hi' }];

describe('applyGovernance', () => {
  it('caps max tokens and temperature, leaving lower values alone', () => {
    const governance = { maxTokens: 100, maxTemperature: 0.5 };
    expect(applyGovernance({ messages, maxTokens: 500, temperature: 1 }, governance)).toMatchObject({
      maxTokens: 100,
      temperature: 0.5,
    });
    expect(applyGovernance({ messages, maxTokens: 50, temperature: 0.1 }, governance)).toMatchObject({
      maxTokens: 50,
      temperature: 0.1,
    });
    const bare: ModelRequest = { messages };
    expect(applyGovernance(bare, governance).maxTokens).toBe(100);
  });

  it('takes blocked tools out, with a tool choice that names one, without touching the request', () => {
    const request: ModelRequest = {
      messages,
      tools: [tool('fs.read'), tool('fs.delete')],
      toolChoice: { type: 'function', function: { name: 'fs.delete' } },
    };
    const governed = applyGovernance(request, { blockedTools: ['fs.delete'] });
    expect(governed.tools).toEqual([tool('fs.read')]);
    expect(governed).not.toHaveProperty('toolChoice');
    expect(request.tools).toHaveLength(2);
    const none = applyGovernance(
      { messages, tools: [tool('fs.delete')], toolChoice: 'required' },
      { blockedTools: ['fs.delete'] },
    );
    expect(none).toEqual({ messages });
  });
});
