import { Badge, Chips, Field, FilterInput, ObjectLink, StateLine } from '../components/common.jsx';
import { PagedTable } from '../components/VirtualTable.jsx';
import { serverNow } from '../lib/clock.js';
import { useConsoleQuery, usePainted } from '../lib/query.js';
import { navigate, objectPath, setParams } from '../lib/router.js';
import { age, bytes, cores } from '../lib/time.js';
import { NamespaceSelect } from './Namespaces.jsx';

const FILTERS = ['namespace', 'labelSelector', 'node', 'phase', 'owner', 'name', 'sort'];

/** Pods by phase, filtered on the server (namespace, label selector, node, phase, owner, name), paged as they scroll. */
export function Pods({ params, at }) {
  const filters = Object.fromEntries(FILTERS.map((f) => [f, params[f]]));
  const q = useConsoleQuery('pods', { ...filters, limit: 100 }, { at, kinds: ['Pod'] });
  usePainted('pods', q.data);
  const now = at ? Date.parse(at) : serverNow();
  const ownerLink = (p) => {
    if (!p.owner) return '';
    const [kind, name] = p.owner.split('/');
    return <ObjectLink kind={kind} namespace={p.namespace} name={name}>{p.owner}</ObjectLink>;
  };
  const columns = [
    { title: 'Namespace', width: 'minmax(90px,1fr)', render: (p) => p.namespace },
    { title: 'Name', width: 'minmax(180px,3fr)', render: (p) => <ObjectLink kind="Pod" namespace={p.namespace} name={p.name} /> },
    { title: 'Ready', width: '60px', render: (p) => p.ready },
    { title: 'Status', width: 'minmax(110px,1.3fr)', render: (p) => <Badge value={p.status} /> },
    { title: 'Restarts', width: '70px', render: (p) => p.restarts },
    { title: 'Node', width: 'minmax(90px,1.2fr)', render: (p) => p.node ? <ObjectLink kind="Node" name={p.node} /> : <span class="muted">none</span> },
    { title: 'IP', width: '110px', render: (p) => p.ip || '' },
    { title: 'Requests', width: '110px', render: (p) => `${cores(p.cpuMilli)} / ${bytes(p.memoryBytes)}` },
    { title: 'Owner', width: 'minmax(120px,2fr)', render: ownerLink },
    { title: 'Age', width: '64px', render: (p) => age(p.created, now) },
  ];
  return (
    <section>
      <h1>Pods <span class="count" id="pods-total">{q.data ? q.data.total.toLocaleString() : ''}</span></h1>
      <StateLine {...q} />
      <Chips id="pod-phases" counts={q.data?.phases} selected={params.phase} onSelect={(phase) => setParams({ phase })} all="All phases" />
      <div class="filters">
        <Field label="Namespace"><NamespaceSelect at={at} value={params.namespace} onChange={(namespace) => setParams({ namespace })} /></Field>
        <Field label="Label selector"><FilterInput id="filter-labels" value={params.labelSelector} placeholder="app=web,tier!=db" onChange={(labelSelector) => setParams({ labelSelector })} /></Field>
        <Field label="Node"><FilterInput id="filter-node" value={params.node} placeholder="node-1" width="110px" onChange={(node) => setParams({ node })} /></Field>
        <Field label="Owner"><FilterInput id="filter-owner" value={params.owner} placeholder="ReplicaSet/web-7d9" onChange={(owner) => setParams({ owner })} /></Field>
        <Field label="Name"><FilterInput id="filter-name" value={params.name} placeholder="contains" width="120px" onChange={(name) => setParams({ name })} /></Field>
        <Field label="Sort">
          <select value={params.sort || ''} onChange={(e) => setParams({ sort: e.currentTarget.value })}>
            <option value="">namespace/name</option>
            <option value="age">newest</option>
            <option value="restarts">restarts</option>
            <option value="node">node</option>
            <option value="status">status</option>
          </select>
        </Field>
      </div>
      <PagedTable id="pods-table" path="pods" params={filters} at={at} first={q.data} columns={columns}
        rowClass={(p) => `pod-row tone-${p.phase}`} empty={q.data ? 'No pods match.' : 'Loading…'}
        onRowClick={(p) => navigate(objectPath('Pod', p.namespace, p.name))} height="calc(100vh - 330px)" />
    </section>
  );
}
