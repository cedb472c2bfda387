import { useState } from 'preact/hooks';
import { Badge, Field, ObjectLink, StateLine } from '../components/common.jsx';
import { VirtualTable } from '../components/VirtualTable.jsx';
import { useConsoleQuery, usePainted } from '../lib/query.js';
import { navigate, objectPath, setParams } from '../lib/router.js';
import { formatMoment } from '../lib/time.js';

const FIELDS = ['since', 'until', 'actor', 'verb', 'kind', 'namespace', 'name', 'outcome', 'limit'];
const VERBS = ['create', 'update', 'update-status', 'bind', 'delete'];

/** The audit log with the CLI's filters (eventplane audit): accepted and rejected changes, who, what, when. */
export function Audit({ params }) {
  const query = Object.fromEntries(FIELDS.map((f) => [f, params[f]]));
  if (query.since === undefined) query.since = '1h';
  if (!query.limit) query.limit = '2000';
  const [form, setForm] = useState(query);
  // "all" reads the whole log (an empty value would vanish from the link).
  const q = useConsoleQuery('audit', { ...query, since: query.since === 'all' ? undefined : query.since }, {});
  usePainted('audit', q.data);
  const items = q.data?.items || [];
  const set = (k) => (e) => setForm({ ...form, [k]: e.currentTarget.value });
  const columns = [
    { title: 'Time', width: '190px', render: (e) => formatMoment(e.time) },
    { title: 'Actor', width: 'minmax(120px,1.2fr)', render: (e) => e.actor },
    { title: 'Verb', width: '110px', render: (e) => e.verb },
    { title: 'Object', width: 'minmax(200px,3fr)', render: (e) => <ObjectLink kind={e.kind} namespace={e.namespace} name={e.name}>{`${e.kind}/${e.namespace ? `${e.namespace}/` : ''}${e.name}`}</ObjectLink> },
    { title: 'Outcome', width: '90px', render: (e) => <Badge value={e.outcome} /> },
    { title: 'Detail', width: 'minmax(160px,3fr)', render: (e) => (e.outcome === 'accepted' ? `${e.change} rv=${e.resourceVersion}` : `${e.code} ${e.reason}: ${e.message}`) },
  ];
  return (
    <section>
      <h1>Audit log <span class="count">{q.data ? items.length.toLocaleString() : ''}</span></h1>
      <StateLine loading={q.loading} error={q.error}>
        <span class="muted">every accepted and rejected mutation, read from the log (times: RFC 3339 or an age such as 15m)</span>
      </StateLine>
      <form class="filters" id="audit-form" onSubmit={(e) => { e.preventDefault(); setParams(form); }}>
        <Field label="Since"><input value={form.since} onInput={set('since')} placeholder="1h, or all" style={{ width: '150px' }} /></Field>
        <Field label="Until"><input value={form.until || ''} onInput={set('until')} placeholder="now" style={{ width: '150px' }} /></Field>
        <Field label="Actor"><input value={form.actor || ''} onInput={set('actor')} placeholder="kubectl" /></Field>
        <Field label="Verb">
          <select value={form.verb || ''} onChange={set('verb')}><option value="">any</option>{VERBS.map((v) => <option>{v}</option>)}</select>
        </Field>
        <Field label="Kind"><input value={form.kind || ''} onInput={set('kind')} placeholder="Pod" style={{ width: '110px' }} /></Field>
        <Field label="Namespace"><input value={form.namespace || ''} onInput={set('namespace')} style={{ width: '110px' }} /></Field>
        <Field label="Name"><input value={form.name || ''} onInput={set('name')} /></Field>
        <Field label="Outcome">
          <select value={form.outcome || ''} onChange={set('outcome')}><option value="">any</option><option>accepted</option><option>rejected</option></select>
        </Field>
        <Field label="Limit"><input value={form.limit || ''} onInput={set('limit')} style={{ width: '70px' }} /></Field>
        <button type="submit" id="audit-search">Search</button>
      </form>
      <VirtualTable id="audit-table" columns={columns} count={items.length} rowAt={(i) => items[i]}
        rowClass={(e) => e.outcome} empty={q.loading ? 'Reading the log…' : 'No entries match.'}
        onRowClick={(e) => navigate(objectPath(e.kind, e.namespace, e.name), { tab: 'history' })} height="calc(100vh - 330px)" />
    </section>
  );
}
