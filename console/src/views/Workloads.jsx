import { Badge, Chips, Field, FilterInput, ObjectLink, Progress, StateLine } from '../components/common.jsx';
import { PagedTable } from '../components/VirtualTable.jsx';
import { serverNow } from '../lib/clock.js';
import { useConsoleQuery, usePainted } from '../lib/query.js';
import { navigate, objectPath, setParams } from '../lib/router.js';
import { age } from '../lib/time.js';
import { NamespaceSelect } from './Namespaces.jsx';

export const WORKLOAD_KINDS = ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'ReplicationController'];
const FILTERS = ['kind', 'namespace', 'name', 'state', 'sort'];

/** Workloads of every kind with their rollout progress. */
export function Workloads({ params, at }) {
  const filters = Object.fromEntries(FILTERS.map((f) => [f, params[f]]));
  const q = useConsoleQuery('workloads', { ...filters, limit: 100 }, { at, kinds: WORKLOAD_KINDS });
  usePainted('workloads', q.data);
  const now = at ? Date.parse(at) : serverNow();
  const columns = [
    { title: 'Kind', width: '130px', render: (w) => w.kind },
    { title: 'Namespace', width: 'minmax(90px,1fr)', render: (w) => w.namespace },
    { title: 'Name', width: 'minmax(160px,2.5fr)', render: (w) => <ObjectLink kind={w.kind} namespace={w.namespace} name={w.name} /> },
    { title: 'State', width: '110px', render: (w) => <Badge value={w.state} /> },
    {
      title: 'Rollout', width: 'minmax(120px,1.5fr)',
      render: (w) => (w.kind === 'CronJob' ? <span class="muted">{w.current} active</span>
        : <Progress done={w.updated} of={w.desired} label={`${w.updated} of ${w.desired} ${w.kind === 'Job' ? 'succeeded' : 'up to date'}; ${w.ready} ready, ${w.available} available${w.message ? ` — ${w.message}` : ''}`} />),
    },
    { title: 'Ready', width: '70px', render: (w) => (w.kind === 'CronJob' ? '' : `${w.ready}/${w.desired}`) },
    { title: 'Available', width: '76px', render: (w) => (w.kind === 'CronJob' ? '' : w.available) },
    { title: 'Images', width: 'minmax(120px,2fr)', render: (w) => <span class="mono">{w.images.join(', ')}</span> },
    { title: 'Age', width: '64px', render: (w) => age(w.created, now) },
  ];
  return (
    <section>
      <h1>Workloads <span class="count">{q.data ? q.data.total.toLocaleString() : ''}</span></h1>
      <StateLine {...q} />
      <Chips id="workload-kinds" counts={q.data?.kinds} selected={params.kind} onSelect={(kind) => setParams({ kind })} all="All kinds" />
      <Chips id="workload-states" counts={q.data?.states} selected={params.state} onSelect={(state) => setParams({ state })} all="Any state" />
      <div class="filters">
        <Field label="Namespace"><NamespaceSelect at={at} value={params.namespace} onChange={(namespace) => setParams({ namespace })} /></Field>
        <Field label="Name"><FilterInput value={params.name} placeholder="contains" onChange={(name) => setParams({ name })} /></Field>
        <Field label="Sort">
          <select value={params.sort || ''} onChange={(e) => setParams({ sort: e.currentTarget.value })}>
            <option value="">namespace/name</option>
            <option value="kind">kind</option>
            <option value="state">state</option>
            <option value="age">newest</option>
          </select>
        </Field>
      </div>
      <PagedTable id="workloads-table" path="workloads" params={filters} at={at} first={q.data} columns={columns}
        empty={q.data ? 'No workloads match.' : 'Loading…'} height="calc(100vh - 360px)"
        onRowClick={(w) => navigate(objectPath(w.kind, w.namespace, w.name))} />
    </section>
  );
}
