import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Badge, Field, ObjectLink, StateLine } from '../components/common.jsx';
import { VirtualTable } from '../components/VirtualTable.jsx';
import { serverNow } from '../lib/clock.js';
import { useConsoleQuery, usePainted } from '../lib/query.js';
import { navigate, objectPath, setParams } from '../lib/router.js';
import { age, bytes, cores, percent } from '../lib/time.js';

const METRICS = {
  cpu: { label: 'CPU requested', used: (n) => n.cpuRequested, of: (n) => n.cpuMilli, fmt: cores },
  memory: { label: 'memory requested', used: (n) => n.memoryRequested, of: (n) => n.memoryBytes, fmt: bytes },
  pods: { label: 'pods', used: (n) => n.podCount, of: (n) => n.pods, fmt: (x) => String(x) },
};
const byName = new Intl.Collator('en', { numeric: true }).compare;

export function nodeStatus(n) {
  const s = n.ready === 'True' ? 'Ready' : n.ready === 'False' ? 'NotReady' : 'Unknown';
  return n.unschedulable ? `${s},SchedulingDisabled` : s;
}

/** Green through yellow to red as a node fills up. */
function heat(fraction) {
  const f = Math.max(0, Math.min(1, fraction));
  const hue = 130 - 130 * f;
  return `hsl(${hue}, 65%, ${f < 0.02 ? 88 : 52}%)`;
}

/** Every node as one cell, coloured by how much of it is requested: readable at 5,000 nodes. */
function NodeGrid({ nodes, metric, onOpen }) {
  const canvas = useRef(null);
  const box = useRef(null);
  const [width, setWidth] = useState(900);
  const [hover, setHover] = useState(null);
  const m = METRICS[metric];
  const n = nodes.length;
  const cell = Math.max(5, Math.min(28, Math.floor(Math.sqrt((width * 300) / Math.max(1, n)))));
  const cols = Math.max(1, Math.floor(width / cell));
  const rows = Math.ceil(n / cols);
  useEffect(() => {
    const ro = new ResizeObserver(([e]) => setWidth(Math.floor(e.contentRect.width)));
    ro.observe(box.current);
    return () => ro.disconnect();
  }, []);
  useEffect(() => {
    const c = canvas.current;
    const dpr = window.devicePixelRatio || 1;
    c.width = cols * cell * dpr;
    c.height = Math.max(1, rows * cell) * dpr;
    c.style.width = `${cols * cell}px`;
    c.style.height = `${rows * cell}px`;
    const g = c.getContext('2d');
    g.scale(dpr, dpr);
    g.clearRect(0, 0, cols * cell, rows * cell);
    const gap = cell >= 8 ? 1 : 0;
    nodes.forEach((node, i) => {
      const x = (i % cols) * cell;
      const y = Math.floor(i / cols) * cell;
      const of = m.of(node);
      if (node.ready !== 'True') {
        g.fillStyle = node.ready === 'False' ? '#1f2937' : '#9ca3af';
      } else {
        g.fillStyle = heat(of > 0 ? m.used(node) / of : 0);
      }
      g.fillRect(x, y, cell - gap, cell - gap);
      if (node.ready === 'False' && cell >= 6) {
        g.strokeStyle = '#ef4444';
        g.lineWidth = 1.5;
        g.beginPath();
        g.moveTo(x + 1.5, y + 1.5);
        g.lineTo(x + cell - gap - 1.5, y + cell - gap - 1.5);
        g.moveTo(x + cell - gap - 1.5, y + 1.5);
        g.lineTo(x + 1.5, y + cell - gap - 1.5);
        g.stroke();
      }
      if (node.unschedulable || node.problems.length) {
        g.strokeStyle = node.problems.length ? '#f97316' : '#2563eb';
        g.lineWidth = Math.max(1, Math.floor(cell / 6));
        g.strokeRect(x + g.lineWidth / 2, y + g.lineWidth / 2, cell - gap - g.lineWidth, cell - gap - g.lineWidth);
      }
    });
  }, [nodes, metric, cell, cols, rows]);
  const at = (e) => {
    const r = canvas.current.getBoundingClientRect();
    const i = Math.floor((e.clientY - r.top) / cell) * cols + Math.floor((e.clientX - r.left) / cell);
    return i >= 0 && i < n && e.clientX - r.left < cols * cell ? i : -1;
  };
  const h = hover !== null ? nodes[hover.i] : null;
  return (
    <div class="grid-box" ref={box}>
      <canvas id="node-grid" ref={canvas} onMouseLeave={() => setHover(null)}
        onMouseMove={(e) => {
          const i = at(e);
          setHover(i < 0 ? null : { i, x: e.clientX, y: e.clientY });
        }}
        onClick={(e) => {
          const i = at(e);
          if (i >= 0) onOpen(nodes[i]);
        }} />
      {h && (
        <div class="tooltip" style={{ left: `${hover.x + 14}px`, top: `${hover.y + 14}px` }}>
          <b>{h.name}</b> <Badge value={nodeStatus(h)} />
          <div>CPU {cores(h.cpuRequested)} / {cores(h.cpuMilli)} ({percent(h.cpuRequested, h.cpuMilli)}%)</div>
          <div>memory {bytes(h.memoryRequested)} / {bytes(h.memoryBytes)} ({percent(h.memoryRequested, h.memoryBytes)}%)</div>
          <div>pods {h.podCount} / {h.pods}</div>
          {h.problems.length > 0 && <div class="warn">{h.problems.join(', ')}</div>}
          {h.taints.length > 0 && <div class="mono">{h.taints.join(' ')}</div>}
        </div>
      )}
    </div>
  );
}

function Usage({ used, of, fmt }) {
  const p = percent(used, of);
  return (
    <div class="usage" title={`${p}%`}>
      <div class="bar" style={{ width: `${Math.min(100, p)}%`, background: heat(p / 100) }} />
      <span>{fmt(used)} / {fmt(of)}</span>
    </div>
  );
}

/** Nodes: conditions, taints, requested against allocatable, as a grid and as a table. */
export function Nodes({ params, at }) {
  const q = useConsoleQuery('nodes', {}, { at, kinds: ['Node', 'Pod'], throttle: 1000 });
  usePainted('nodes', q.data);
  const metric = METRICS[params.metric] ? params.metric : 'cpu';
  const now = at ? Date.parse(at) : serverNow();
  const filter = (params.filter || '').toLowerCase();
  const status = params.status;
  const order = params.order || 'name';
  const nodes = useMemo(() => {
    const all = (q.data?.nodes || []).filter((n) => (!filter || n.name.toLowerCase().includes(filter))
      && (!status || nodeStatus(n).split(',').includes(status) || (status === 'Problems' && n.problems.length)));
    const m = METRICS[metric];
    if (order === 'usage') all.sort((a, b) => m.used(b) / (m.of(b) || 1) - m.used(a) / (m.of(a) || 1));
    else if (order === 'status') all.sort((a, b) => nodeStatus(a).localeCompare(nodeStatus(b)) || byName(a.name, b.name));
    else all.sort((a, b) => byName(a.name, b.name));
    return all;
  }, [q.data, filter, status, order, metric]);
  const d = q.data;
  const open = (n) => navigate(objectPath('Node', '', n.name));
  const columns = [
    { title: 'Name', width: 'minmax(120px,1.5fr)', render: (n) => <ObjectLink kind="Node" name={n.name} /> },
    { title: 'Status', width: 'minmax(110px,1.3fr)', render: (n) => <Badge value={nodeStatus(n)} /> },
    { title: 'Problems', width: 'minmax(90px,1fr)', render: (n) => <span class="warn">{n.problems.join(', ')}</span> },
    { title: 'Taints', width: 'minmax(120px,2fr)', render: (n) => <span class="mono" title={n.taints.join('\n')}>{n.taints.join(' ')}</span> },
    { title: 'CPU requested', width: 'minmax(130px,1.4fr)', render: (n) => <Usage used={n.cpuRequested} of={n.cpuMilli} fmt={cores} /> },
    { title: 'Memory requested', width: 'minmax(130px,1.4fr)', render: (n) => <Usage used={n.memoryRequested} of={n.memoryBytes} fmt={bytes} /> },
    { title: 'Pods', width: 'minmax(100px,1fr)', render: (n) => <Usage used={n.podCount} of={n.pods} fmt={String} /> },
    { title: 'Version', width: '90px', render: (n) => n.kubeletVersion || '' },
    { title: 'Age', width: '60px', render: (n) => age(n.created, now) },
  ];
  const notReady = d ? d.nodes.filter((n) => n.ready !== 'True').length : 0;
  return (
    <section>
      <h1>Nodes <span class="count" id="nodes-total">{d ? d.total.toLocaleString() : ''}</span></h1>
      <StateLine {...q} />
      {d && (
        <div class="summary">
          <div><b>{d.ready.toLocaleString()}</b> ready{notReady ? <>, <b class="bad">{notReady}</b> not ready</> : null}</div>
          <div>CPU <b>{percent(d.totals.cpuRequested, d.totals.cpuMilli)}%</b> requested ({cores(d.totals.cpuRequested)} of {cores(d.totals.cpuMilli)})</div>
          <div>memory <b>{percent(d.totals.memoryRequested, d.totals.memoryBytes)}%</b> ({bytes(d.totals.memoryRequested)} of {bytes(d.totals.memoryBytes)})</div>
          <div>pods <b>{d.totals.podCount.toLocaleString()}</b> of {d.totals.pods.toLocaleString()}</div>
          {d.unscheduledPods > 0 && <div><b class="warn">{d.unscheduledPods.toLocaleString()}</b> pods not yet scheduled</div>}
        </div>
      )}
      <div class="filters">
        <Field label="Colour by">
          <select id="node-metric" value={metric} onChange={(e) => setParams({ metric: e.currentTarget.value })}>
            {Object.entries(METRICS).map(([k, m]) => <option value={k}>{m.label}</option>)}
          </select>
        </Field>
        <Field label="Order">
          <select value={order} onChange={(e) => setParams({ order: e.currentTarget.value })}>
            <option value="name">name</option><option value="usage">fullest first</option><option value="status">status</option>
          </select>
        </Field>
        <Field label="Status">
          <select value={status || ''} onChange={(e) => setParams({ status: e.currentTarget.value })}>
            <option value="">any</option><option>Ready</option><option>NotReady</option><option>Unknown</option>
            <option>SchedulingDisabled</option><option>Problems</option>
          </select>
        </Field>
        <Field label="Name"><input value={params.filter || ''} placeholder="contains" onInput={(e) => setParams({ filter: e.currentTarget.value }, { replace: true })} /></Field>
        <span class="legend">
          <i style={{ background: heat(0) }} />0% <i style={{ background: heat(0.5) }} />50% <i style={{ background: heat(1) }} />100%
          <i class="notready" />not ready <i class="cordoned" />cordoned <i class="problem" />pressure
        </span>
      </div>
      <NodeGrid nodes={nodes} metric={metric} onOpen={open} />
      <VirtualTable id="nodes-table" columns={columns} count={nodes.length} rowAt={(i) => nodes[i]} onRowClick={open}
        empty={d ? 'No nodes.' : 'Loading…'} height="max(260px, calc(100vh - 560px))" />
    </section>
  );
}
