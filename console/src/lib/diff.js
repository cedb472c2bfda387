import { diffLines } from 'diff';

function lines(text) {
  const out = text.split('\n');
  if (out.length && out[out.length - 1] === '') out.pop();
  return out;
}

/**
 * Two texts side by side, line by line, from jsdiff's line diff: unchanged lines on both sides; a removed run next
 * to the added run that replaced it (paired as "changed"); what is left over alone on its side.
 * Rows: { type: 'same'|'changed'|'removed'|'added', left, right, leftNo, rightNo }.
 */
export function sideBySide(a, b) {
  const parts = diffLines(a, b);
  const rows = [];
  let leftNo = 1;
  let rightNo = 1;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (!part.added && !part.removed) {
      for (const l of lines(part.value)) rows.push({ type: 'same', left: l, right: l, leftNo: leftNo++, rightNo: rightNo++ });
    } else if (part.removed && parts[i + 1] && parts[i + 1].added) {
      const removed = lines(part.value);
      const added = lines(parts[i + 1].value);
      for (let j = 0; j < Math.max(removed.length, added.length); j++) {
        const l = removed[j];
        const r = added[j];
        rows.push({
          type: l !== undefined && r !== undefined ? 'changed' : l !== undefined ? 'removed' : 'added',
          left: l, right: r,
          leftNo: l !== undefined ? leftNo++ : undefined,
          rightNo: r !== undefined ? rightNo++ : undefined,
        });
      }
      i++;
    } else if (part.removed) {
      for (const l of lines(part.value)) rows.push({ type: 'removed', left: l, leftNo: leftNo++ });
    } else {
      for (const r of lines(part.value)) rows.push({ type: 'added', right: r, rightNo: rightNo++ });
    }
  }
  return rows;
}

/** Folds runs of unchanged rows longer than 2 * context + 1 into { type: 'skip', count } rows. */
export function collapse(rows, context = 3) {
  const out = [];
  let i = 0;
  while (i < rows.length) {
    if (rows[i].type !== 'same') {
      out.push(rows[i++]);
      continue;
    }
    let j = i;
    while (j < rows.length && rows[j].type === 'same') j++;
    const run = j - i;
    const head = i === 0 ? 0 : context;
    const tail = j === rows.length ? 0 : context;
    if (run > head + tail + 1) {
      out.push(...rows.slice(i, i + head));
      out.push({ type: 'skip', count: run - head - tail });
      out.push(...rows.slice(j - tail, j));
    } else {
      out.push(...rows.slice(i, j));
    }
    i = j;
  }
  return out;
}

/** How many lines changed: { added, removed }. */
export function stats(rows) {
  let added = 0;
  let removed = 0;
  for (const r of rows) {
    if (r.type === 'added' || r.type === 'changed') added++;
    if (r.type === 'removed' || r.type === 'changed') removed++;
  }
  return { added, removed };
}
