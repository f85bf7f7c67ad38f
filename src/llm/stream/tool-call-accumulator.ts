import type { StreamEvent } from '../../core/types.js';
import type { RawWireToolCall } from '../tool-calls/normalize-tool-calls.js';

interface Slot {
  position: number;
  id: string | undefined;
  name: string;
  arguments: string;
}

/**
 * Joins streamed tool-call deltas (RUNNER-QUIRKS §1-8, 11, 13) into whole calls. A delta is keyed by its
 * `index`; without one, by its `id`; without either, it continues the open call (a fresh name on a call whose
 * arguments are already complete starts a new one). Id and name are set once and never concatenated; a
 * different non-empty id at an index already in use starts a new call (adapters that send every call at
 * index 0, §4). Only the arguments are concatenated; they are parsed once, when the stream ends.
 */
export class ToolCallAccumulator {
  private readonly slots: Slot[] = [];
  private readonly byIndex = new Map<number, Slot>();

  /** Adds the `tool_calls` array of one delta; pushes a `tool-call-delta` per entry that brought something. */
  add(deltas: readonly unknown[], events: StreamEvent[]): void {
    for (const delta of deltas) {
      if (typeof delta !== 'object' || delta === null) continue;
      this.addOne(delta as Record<string, unknown>, events);
    }
  }

  get size(): number {
    return this.slots.length;
  }

  /** The calls in the order they were opened. */
  toRawCalls(): RawWireToolCall[] {
    return this.slots.map((slot) => ({ id: slot.id, name: slot.name, arguments: slot.arguments }));
  }

  private addOne(delta: Record<string, unknown>, events: StreamEvent[]): void {
    const fn =
      typeof delta.function === 'object' && delta.function !== null
        ? (delta.function as Record<string, unknown>)
        : undefined;
    const id = typeof delta.id === 'string' && delta.id !== '' ? delta.id : undefined;
    const name = typeof fn?.name === 'string' && fn.name !== '' ? fn.name : undefined;
    const fragment = readFragment(fn?.arguments);
    const index = typeof delta.index === 'number' ? delta.index : undefined;
    const slot = this.findSlot(index, { id, name, fragment });
    const event: StreamEvent & { type: 'tool-call-delta' } = {
      type: 'tool-call-delta',
      index: slot.position,
      argumentsDelta: fragment,
    };
    if (id !== undefined && slot.id === undefined) {
      slot.id = id;
      event.id = id;
    }
    if (name !== undefined && slot.name === '') {
      slot.name = name;
      event.name = name;
    }
    slot.arguments += fragment;
    if (fragment !== '' || event.id !== undefined || event.name !== undefined) events.push(event);
  }

  private findSlot(index: number | undefined, key: DeltaKey): Slot {
    if (index !== undefined) {
      const slot = this.byIndex.get(index);
      if (slot !== undefined && !startsNewCall(slot, key)) return slot;
      const fresh = this.openSlot();
      this.byIndex.set(index, fresh);
      return fresh;
    }
    if (key.id !== undefined) return this.slots.find((slot) => slot.id === key.id) ?? this.openSlot();
    const last = this.slots[this.slots.length - 1];
    return last !== undefined && !startsNewCall(last, key) ? last : this.openSlot();
  }

  private openSlot(): Slot {
    const slot: Slot = { position: this.slots.length, id: undefined, name: '', arguments: '' };
    this.slots.push(slot);
    return slot;
  }
}

interface DeltaKey {
  id: string | undefined;
  name: string | undefined;
  fragment: string;
}

function startsNewCall(slot: Slot, key: DeltaKey): boolean {
  if (key.id !== undefined && slot.id !== undefined && key.id !== slot.id) return true;
  // No id to go by: a name arriving once the arguments are already a whole JSON value starts the next call
  // when it is a different name or brings a new JSON value; a repeated name alone is tolerated (§7).
  if (key.name === undefined || slot.name === '' || slot.arguments === '') return false;
  const bringsNewValue = key.name !== slot.name || key.fragment.trimStart().startsWith('{');
  return bringsNewValue && isCompleteJson(slot.arguments);
}

function isCompleteJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function readFragment(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  // Some runners send the whole call with its arguments as an object (RUNNER-QUIRKS §6, §9).
  return JSON.stringify(value) ?? '';
}
