import { describe, expect, it } from 'vitest';
import { collapse, sideBySide, stats } from './diff.js';
import { toYaml } from './yaml.js';

describe('side-by-side diff', () => {
  it('pairs a changed line with its replacement and keeps the rest aligned', () => {
    const a = toYaml({ spec: { containers: [{ name: 'app', image: 'nginx:1.14.2' }], replicas: 1 } });
    const b = toYaml({ spec: { containers: [{ name: 'app', image: 'nginx:1.16.1' }], replicas: 1 } });
    const rows = sideBySide(a, b);
    const changed = rows.filter((r) => r.type === 'changed');
    expect(changed).toHaveLength(1);
    expect(changed[0].left).toContain('nginx:1.14.2');
    expect(changed[0].right).toContain('nginx:1.16.1');
    expect(changed[0].leftNo).toBe(changed[0].rightNo);
    expect(stats(rows)).toEqual({ added: 1, removed: 1 });
  });

  it('shows lines only one side has on that side', () => {
    const rows = sideBySide('a\nb\n', 'a\nb\nc\n');
    expect(rows.map((r) => r.type)).toEqual(['same', 'same', 'added']);
    expect(rows[2]).toMatchObject({ right: 'c', rightNo: 3 });
    expect(rows[2].left).toBeUndefined();
    expect(sideBySide('a\nb\n', 'b\n').map((r) => r.type)).toEqual(['removed', 'same']);
  });

  it('folds long unchanged runs but keeps context around changes', () => {
    const a = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const b = a.replace('line 10', 'LINE 10');
    const folded = collapse(sideBySide(a, b), 2);
    expect(folded.map((r) => r.type)).toEqual(['skip', 'same', 'same', 'changed', 'same', 'same', 'skip']);
    expect(folded[0].count).toBe(8);
  });
});

describe('YAML', () => {
  it('leaves managedFields out unless asked for', () => {
    const o = { metadata: { name: 'x', managedFields: [{ manager: 'kubectl' }] } };
    expect(toYaml(o)).not.toContain('managedFields');
    expect(toYaml(o, { managedFields: true })).toContain('manager: kubectl');
  });
});
