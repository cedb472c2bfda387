import { Virtualizer, elementScroll, observeElementOffset, observeElementRect } from '@tanstack/virtual-core';
import { useEffect, useLayoutEffect, useReducer, useRef, useState } from 'preact/hooks';
import { consoleUrl, getJSON } from '../lib/api.js';

/** @tanstack/virtual-core driven the way its React adapter drives it. */
function useVirtualizer(count, rowHeight, scrollRef) {
  const [, rerender] = useReducer((x) => x + 1, 0);
  const options = {
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 15,
    scrollToFn: elementScroll,
    observeElementRect,
    observeElementOffset,
    onChange: () => rerender(),
  };
  const [virtualizer] = useState(() => new Virtualizer(options));
  virtualizer.setOptions(options);
  useLayoutEffect(() => virtualizer._didMount(), []);
  useLayoutEffect(() => virtualizer._willUpdate());
  return virtualizer;
}

/**
 * A table that renders only the rows in view (plus a few), so 150,000 rows scroll like 50.
 * columns: [{ title, width (a CSS grid track), render(row, index) }]; rowAt(i) may return undefined for a row not
 * loaded yet; onRange(first, last) tells which rows are in view.
 */
export function VirtualTable({ columns, count, rowAt, onRowClick, onRange, rowClass, height = '60vh', empty, id }) {
  const scrollRef = useRef(null);
  const rowHeight = 28;
  const v = useVirtualizer(count, rowHeight, scrollRef);
  const items = v.getVirtualItems();
  const first = items.length ? items[0].index : 0;
  const last = items.length ? items[items.length - 1].index : -1;
  useEffect(() => {
    if (onRange && last >= first) onRange(first, last);
  }, [first, last, count, onRange]);
  const grid = { gridTemplateColumns: columns.map((c) => c.width || '1fr').join(' ') };
  return (
    <div class="vtable" id={id}>
      <div class="vrow vhead" style={grid}>
        {columns.map((c) => <div class="vcell" key={c.title}>{c.title}</div>)}
      </div>
      <div class="vbody" ref={scrollRef} style={{ height }}>
        {count === 0 && <div class="empty">{empty || 'Nothing here.'}</div>}
        <div style={{ height: `${v.getTotalSize()}px`, position: 'relative' }}>
          {items.map((item) => {
            const row = rowAt(item.index);
            return (
              <div
                key={item.key}
                data-index={item.index}
                class={`vrow${row ? '' : ' loading'}${row && rowClass ? ` ${rowClass(row)}` : ''}${onRowClick && row ? ' clickable' : ''}`}
                style={{ ...grid, transform: `translateY(${item.start}px)`, height: `${rowHeight}px` }}
                onClick={row && onRowClick ? () => onRowClick(row) : undefined}
              >
                {row ? columns.map((c) => <div class="vcell" key={c.title}>{c.render(row, item.index)}</div>)
                  : <div class="vcell">…</div>}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

/**
 * A VirtualTable over a server-side list: the first page comes with the view's query (`first`: { total, rows }),
 * later pages are fetched as they scroll into view. A new `first` (filters changed, or the cluster did) drops the
 * other pages and reloads those in view.
 */
export function PagedTable({ path, params, at, first, pageSize = 100, ...table }) {
  const pages = useRef(new Map());
  const loading = useRef(new Set());
  const range = useRef([0, 0]);
  const generation = useRef(0);
  const [, bump] = useReducer((x) => x + 1, 0);
  const paramKey = JSON.stringify(params);

  const load = (page) => {
    if (pages.current.has(page) || loading.current.has(page)) return;
    loading.current.add(page);
    const gen = generation.current;
    getJSON(consoleUrl(path, { ...params, asOf: at, offset: page * pageSize, limit: pageSize }))
      .then((data) => {
        if (gen !== generation.current) return;
        pages.current.set(page, data.rows);
        bump();
      })
      .catch(() => {})
      .finally(() => loading.current.delete(page));
  };

  useEffect(() => {
    generation.current++;
    loading.current.clear();
    pages.current = new Map(first ? [[0, first.rows]] : []);
    const [a, b] = range.current;
    for (let p = Math.floor(a / pageSize); p <= Math.floor(b / pageSize); p++) load(p);
    bump();
  }, [first, paramKey, at]);

  const onRange = (a, b) => {
    range.current = [a, b];
    for (let p = Math.floor(a / pageSize); p <= Math.floor(b / pageSize); p++) load(p);
  };
  const rowAt = (i) => {
    const page = pages.current.get(Math.floor(i / pageSize));
    return page ? page[i % pageSize] : undefined;
  };
  return <VirtualTable {...table} count={first ? first.total : 0} rowAt={rowAt} onRange={onRange} />;
}
