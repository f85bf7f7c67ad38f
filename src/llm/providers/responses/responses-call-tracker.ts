import type { StreamEvent } from '../../../core/types.js';
import { type ResponsesRawCall, readFunctionCall } from './read-responses-output.js';

type ToolCallDeltaEvent = Extract<StreamEvent, { type: 'tool-call-delta' }>;

interface CallSlot {
  position: number;
  itemId: string | undefined;
  outputIndex: number | undefined;
  call: ResponsesRawCall;
  argumentsText: string;
}

/**
 * Streamed `function_call` items, joined (RUNNER-QUIRKS §65). Argument deltas name their item by `item_id`
 * and (OpenAI) `output_index`, never by `call_id`, so each item is tracked under both from
 * `response.output_item.added`; llama.cpp sends no `output_index` at all. The `.done` events and
 * `output_item.done` carry the whole arguments, which win over the joined deltas.
 */
export class ResponsesCallTracker {
  private readonly slots: CallSlot[] = [];

  get size(): number {
    return this.slots.length;
  }

  /** `response.output_item.added` for a function call. */
  open(item: Record<string, unknown>, outputIndex: unknown, events: StreamEvent[]): void {
    const slot = this.find(item.id, outputIndex) ?? this.create(item.id, outputIndex);
    this.update(slot, item);
    const argumentsDelta = typeof item.arguments === 'string' ? item.arguments : '';
    slot.argumentsText = argumentsDelta;
    events.push(this.toDelta(slot, argumentsDelta, true));
  }

  /** `response.function_call_arguments.delta`; false when it carried nothing. */
  append(data: Record<string, unknown>, events: StreamEvent[]): boolean {
    if (typeof data.delta !== 'string' || data.delta === '') return false;
    const slot = this.find(data.item_id, data.output_index) ?? this.create(data.item_id, data.output_index);
    slot.argumentsText += data.delta;
    events.push(this.toDelta(slot, data.delta, false));
    return true;
  }

  /** `response.function_call_arguments.done` (whole arguments) or `response.output_item.done` (whole item). */
  complete(source: Record<string, unknown>, itemId: unknown, outputIndex: unknown): void {
    const slot = this.find(itemId, outputIndex) ?? this.create(itemId, outputIndex);
    if (source.type === 'function_call') this.update(slot, source);
    if (typeof source.arguments === 'string') slot.argumentsText = source.arguments;
    if (typeof source.name === 'string' && slot.call.name === '') slot.call.name = source.name;
  }

  toRawCalls(): ResponsesRawCall[] {
    return this.slots.map((slot) => ({ ...slot.call, arguments: slot.argumentsText }));
  }

  private update(slot: CallSlot, item: Record<string, unknown>): void {
    const read = readFunctionCall(item);
    slot.call.id ??= read.id;
    if (slot.call.name === '') slot.call.name = read.name;
    slot.call.incomplete = read.incomplete;
  }

  private find(itemId: unknown, outputIndex: unknown): CallSlot | undefined {
    if (typeof itemId === 'string' && itemId !== '') {
      const byItem = this.slots.find((slot) => slot.itemId === itemId);
      if (byItem) return byItem;
    }
    if (typeof outputIndex === 'number') {
      const byIndex = this.slots.find((slot) => slot.outputIndex === outputIndex);
      if (byIndex) return byIndex;
    }
    // Neither key given: the deltas continue the call opened last.
    const anonymous = (typeof itemId !== 'string' || itemId === '') && typeof outputIndex !== 'number';
    return anonymous ? this.slots.at(-1) : undefined;
  }

  private create(itemId: unknown, outputIndex: unknown): CallSlot {
    const slot: CallSlot = {
      position: this.slots.length,
      itemId: typeof itemId === 'string' && itemId !== '' ? itemId : undefined,
      outputIndex: typeof outputIndex === 'number' ? outputIndex : undefined,
      call: { id: undefined, name: '', arguments: '', incomplete: false },
      argumentsText: '',
    };
    this.slots.push(slot);
    return slot;
  }

  private toDelta(slot: CallSlot, argumentsDelta: string, opening: boolean): StreamEvent {
    const event: ToolCallDeltaEvent = { type: 'tool-call-delta', index: slot.position, argumentsDelta };
    if (opening && slot.call.id !== undefined) event.id = slot.call.id;
    if (opening && slot.call.name !== '') event.name = slot.call.name;
    return event;
  }
}
