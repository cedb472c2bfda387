import { Badge, Chips, Field, FilterInput, ObjectLink, StateLine } from '../components/common.jsx';
import { PagedTable } from '../components/VirtualTable.jsx';
import { serverNow } from '../lib/clock.js';
import { useConsoleQuery, usePainted } from '../lib/query.js';
import { setParams } from '../lib/router.js';
import { age } from '../lib/time.js';
import { NamespaceSelect } from './Namespaces.jsx';

const FILTERS = ['namespace', 'type', 'reason', 'object'];

export function eventColumns(now) {
  return [
    { title: 'Last seen', width: '80px', render: (e) => age(e.lastSeen, now) },
    { title: 'Type', width: '80px', render: (e) => <Badge value={e.type} /> },
    { title: 'Reason', width: 'minmax(110px,1fr)', render: (e) => e.reason },
    {
      title: 'Object', width: 'minmax(160px,2fr)',
      render: (e) => <ObjectLink kind={e.objectKind} namespace={e.objectNamespace} name={e.objectName}>{`${e.objectKind}/${e.objectName}`}</ObjectLink>,
    },
    { title: 'Message', width: 'minmax(200px,4fr)', render: (e) => <span title={e.message}>{e.message}</span> },
    { title: 'Count', width: '56px', render: (e) => e.count },
    { title: 'Source', width: 'minmax(90px,1fr)', render: (e) => e.source || '' },
  ];
}

/** Events, newest first. */
export function Events({ params, at }) {
  const filters = Object.fromEntries(FILTERS.map((f) => [f, params[f]]));
  const q = useConsoleQuery('events', { ...filters, limit: 100 }, { at, kinds: ['Event'] });
  usePainted('events', q.data);
  const now = at ? Date.parse(at) : serverNow();
  return (
    <section>
      <h1>Events <span class="count">{q.data ? q.data.total.toLocaleString() : ''}</span></h1>
      <StateLine {...q} />
      <Chips counts={q.data?.types} selected={params.type} onSelect={(type) => setParams({ type })} all="All types" />
      <div class="filters">
        <Field label="Namespace"><NamespaceSelect at={at} value={params.namespace} onChange={(namespace) => setParams({ namespace })} /></Field>
        <Field label="Reason"><FilterInput value={params.reason} placeholder="Scheduled" onChange={(reason) => setParams({ reason })} /></Field>
        <Field label="Object"><FilterInput value={params.object} placeholder="Pod/web" onChange={(object) => setParams({ object })} /></Field>
      </div>
      <PagedTable id="events-table" path="events" params={filters} at={at} first={q.data} columns={eventColumns(now)}
        empty={q.data ? 'No events.' : 'Loading…'} height="calc(100vh - 320px)" />
    </section>
  );
}
