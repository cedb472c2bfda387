import { Badge, Link, ObjectLink, StateLine } from '../components/common.jsx';
import { noteOverview, serverNow } from '../lib/clock.js';
import { useConsoleQuery, usePainted } from '../lib/query.js';
import { age } from '../lib/time.js';
import { useEffect } from 'preact/hooks';
import { WORKLOAD_KINDS } from './Workloads.jsx';

const PHASE_ORDER = ['Running', 'Pending', 'Succeeded', 'Failed', 'Unknown'];
const PHASE_COLOURS = { Running: '#16a34a', Pending: '#f59e0b', Succeeded: '#60a5fa', Failed: '#dc2626', Unknown: '#9ca3af' };

function Stacked({ counts }) {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  if (!total) return <div class="stacked empty" />;
  const keys = [...PHASE_ORDER.filter((k) => counts[k]), ...Object.keys(counts).filter((k) => !PHASE_ORDER.includes(k))];
  return (
    <div class="stacked">
      {keys.map((k) => <div key={k} title={`${k}: ${counts[k]}`} style={{ flex: counts[k], background: PHASE_COLOURS[k] || '#6b7280' }} />)}
    </div>
  );
}

/** The cluster at a glance: nodes, pods by phase, workloads by state, objects by kind, recent warnings. */
export function Overview({ at }) {
  const q = useConsoleQuery('overview', {}, { at, kinds: ['Node', 'Pod', 'Namespace', 'Event', ...WORKLOAD_KINDS] });
  const warnings = useConsoleQuery('events', { type: 'Warning', limit: 8 }, { at, kinds: ['Event'] });
  usePainted('overview', q.data);
  useEffect(() => noteOverview(q.data), [q.data]);
  const d = q.data;
  const now = at ? Date.parse(at) : serverNow();
  const pods = d ? Object.values(d.phases).reduce((a, b) => a + b, 0) : 0;
  const workloads = d ? Object.values(d.workloadStates).reduce((a, b) => a + b, 0) : 0;
  return (
    <section>
      <h1>Cluster</h1>
      <StateLine {...q} />
      {d && (
        <div class="cards">
          <Link to="/nodes" class="card" id="card-nodes">
            <h3>Nodes</h3>
            <div class="big">{d.nodes.ready.toLocaleString()}<small> / {d.nodes.total.toLocaleString()} ready</small></div>
            {d.nodes.total > d.nodes.ready && <Badge value={`${d.nodes.total - d.nodes.ready} NotReady`} />}
          </Link>
          <Link to="/pods" class="card" id="card-pods">
            <h3>Pods</h3>
            <div class="big">{pods.toLocaleString()}</div>
            <Stacked counts={d.phases} />
            <div class="legend-line">{Object.entries(d.phases).map(([k, n]) => <span key={k}><i style={{ background: PHASE_COLOURS[k] || '#6b7280' }} />{k} {n.toLocaleString()}</span>)}</div>
          </Link>
          <Link to="/workloads" class="card" id="card-workloads">
            <h3>Workloads</h3>
            <div class="big">{workloads.toLocaleString()}</div>
            <div class="legend-line">{Object.entries(d.workloadStates).map(([k, n]) => <span key={k}><Badge value={k} /> {n.toLocaleString()}</span>)}</div>
          </Link>
          <div class="card">
            <h3>Objects by kind</h3>
            <table class="plain compact">
              <tbody>{Object.entries(d.kinds).map(([k, n]) => <tr key={k}><td>{k}</td><td class="num">{n.toLocaleString()}</td></tr>)}</tbody>
            </table>
          </div>
        </div>
      )}
      <h2>Recent warnings</h2>
      {warnings.data && warnings.data.rows.length === 0 && <p class="muted">No warning events{at ? ' at that moment' : ''}.</p>}
      <table class="plain">
        <tbody>
          {(warnings.data?.rows || []).map((e) => (
            <tr key={`${e.namespace}/${e.name}`}>
              <td class="nowrap">{age(e.lastSeen, now)}</td><td>{e.reason}</td>
              <td><ObjectLink kind={e.objectKind} namespace={e.objectNamespace} name={e.objectName}>{`${e.objectKind}/${e.objectName}`}</ObjectLink></td>
              <td class="message">{e.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
