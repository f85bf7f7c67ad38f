import { describe, expect, it } from 'vitest';
import { assignWireToolNames, isWireSafeToolName } from './wire-tool-names.js';

describe('assignWireToolNames', () => {
  it('keeps valid names and sanitizes dotted ones', () => {
    const { toWire, toReal } = assignWireToolNames(['fs.read', 'add', 'my tool!']);
    expect(toWire.get('fs.read')).toBe('fs_read');
    expect(toWire.get('add')).toBe('add');
    expect(toWire.get('my tool!')).toBe('my_tool_');
    expect(toReal.get('fs_read')).toBe('fs.read');
  });

  it('resolves collisions with a suffix, the already-valid name keeping its own', () => {
    const first = assignWireToolNames(['fs.read', 'fs_read', 'fs-read', 'fs:read']);
    expect(first.toWire.get('fs_read')).toBe('fs_read');
    expect(first.toWire.get('fs.read')).toBe('fs_read_2');
    expect(first.toWire.get('fs:read')).toBe('fs_read_3');
    const reordered = assignWireToolNames(['fs:read', 'fs_read', 'fs.read', 'fs-read']);
    expect([...reordered.toWire.entries()].sort()).toEqual([...first.toWire.entries()].sort());
  });

  it('shortens long names with a hash so two long names stay apart', () => {
    const prefix = 'x.'.repeat(40);
    const { toWire, toReal } = assignWireToolNames([`${prefix}alpha`, `${prefix}beta`]);
    const alpha = toWire.get(`${prefix}alpha`) ?? '';
    const beta = toWire.get(`${prefix}beta`) ?? '';
    expect(alpha).not.toBe(beta);
    for (const name of [alpha, beta]) expect(isWireSafeToolName(name)).toBe(true);
    expect(toReal.get(alpha)).toBe(`${prefix}alpha`);
  });

  it('always produces unique wire-safe names', () => {
    const names = ['a.b', 'a_b', 'a b', 'a/b', '', '...', 'é', 'a_b_2'];
    const { toWire } = assignWireToolNames(names);
    const wires = [...toWire.values()];
    expect(new Set(wires).size).toBe(names.length);
    for (const wire of wires) expect(isWireSafeToolName(wire)).toBe(true);
  });
});
