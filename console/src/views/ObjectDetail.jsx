import { useEffect, useRef, useState } from 'preact/hooks';
import { Badge, Link, ObjectLink, StateLine } from '../components/common.jsx';
import { VirtualTable } from '../components/VirtualTable.jsx';
import { streamLines } from '../lib/api.js';
import { isPageActive, onPageActivity } from '../lib/live.js';
import { serverNow } from '../lib/clock.js';
import { useConsoleQuery, usePainted } from '../lib/query.js';
import { setParams } from '../lib/router.js';
import { age, formatMoment } from '../lib/time.js';
import { toYaml } from '../lib/yaml.js';
import { eventColumns } from './Events.jsx';
import { History } from './History.jsx';

const RELATED = ['Event', 'Pod', 'ReplicaSet', 'Job', 'ControllerRevision', 'EndpointSlice'];

/**
 * While live, follows the object through the Kubernetes watch API (fetch streaming): its YAML and conditions change
 * the moment the log does. Restarts from the newest version seen when the server ends the watch.
 */
function useWatchedObject(data, name, live) {
  const [watched, setWatched] = useState({ object: null, deleted: false, watching: false });
  const [active, setActive] = useState(isPageActive());
  const latest = useRef(null);
  // The newest version known (the list reloads too, so after a pause the watch resumes from there, not from a
  // version the server may no longer keep).
  latest.current = newer(watched.object, data?.object)?.metadata?.resourceVersion;
  const path = data?.watchPath;
  const exists = !!data?.exists;
  useEffect(() => onPageActivity(setActive), []);
  useEffect(() => {
    if (!live || !path || !exists || !active) {
      setWatched((w) => ({ ...w, watching: false }));
      return undefined;
    }
    const abort = new AbortController();
    (async () => {
      while (!abort.signal.aborted) {
        const url = `${path}?watch=1&allowWatchBookmarks=true&resourceVersion=${encodeURIComponent(latest.current)}`
          + `&fieldSelector=${encodeURIComponent(`metadata.name=${name}`)}`;
        setWatched((w) => ({ ...w, watching: true }));
        try {
          await streamLines(url, (event) => {
            if (event.type === 'ADDED' || event.type === 'MODIFIED') setWatched({ object: event.object, deleted: false, watching: true });
            else if (event.type === 'DELETED') setWatched({ object: event.object, deleted: true, watching: true });
          }, abort.signal);
        } catch {
          // gone (410) or the connection dropped: start again from the newest version seen
        }
        setWatched((w) => ({ ...w, watching: false }));
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();
    return () => abort.abort();
  }, [path, live, name, exists, active]);
  useEffect(() => setWatched({ object: null, deleted: false, watching: false }), [path, name, live]);
  return watched;
}

/** The newer of two versions of an object (a single-partition log's resourceVersions are numbers). */
function newer(a, b) {
  if (!a) return b;
  if (!b) return a;
  return Number(a.metadata?.resourceVersion) >= Number(b.metadata?.resourceVersion) ? a : b;
}

function Conditions({ conditions, now }) {
  if (!conditions || !conditions.length) return <p class="muted">No conditions.</p>;
  return (
    <table class="plain" id="conditions">
      <thead><tr><th>Type</th><th>Status</th><th>Reason</th><th>Message</th><th>Last transition</th></tr></thead>
      <tbody>
        {conditions.map((c) => (
          <tr key={c.type}>
            <td>{c.type}</td><td><Badge value={c.status} /></td><td>{c.reason || ''}</td>
            <td class="message">{c.message || ''}</td>
            <td title={c.lastTransitionTime}>{c.lastTransitionTime ? `${age(Date.parse(c.lastTransitionTime), now)} ago` : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Labels({ map }) {
  const entries = Object.entries(map || {});
  if (!entries.length) return <span class="muted">none</span>;
  return <span class="labels">{entries.map(([k, v]) => <code key={k}>{k}={v}</code>)}</span>;
}

/** One object: summary (conditions, owners, dependents, events), its YAML, and its history with versions and diffs. */
export function ObjectDetail({ kind, namespace, name, params, at }) {
  const tab = params.tab || 'summary';
  const q = useConsoleQuery(`object/${kind}/${namespace || '_'}/${name}`, {}, { at, kinds: [kind, ...RELATED], throttle: 1000 });
  usePainted('object', q.data);
  const watched = useWatchedObject(q.data, name, !at);
  const [managed, setManaged] = useState(false);
  const d = q.data;
  const object = d?.exists || watched.object ? newer(watched.object, d?.object) : null;
  const now = at ? Date.parse(at) : serverNow();
  const meta = object?.metadata || {};
  const tabs = [['summary', 'Summary'], ['yaml', 'YAML'], ['history', 'History']];
  return (
    <section>
      <h1><span class="kind">{kind}</span> {namespace && namespace !== '_' ? <span class="muted">{namespace}/</span> : null}{name}</h1>
      <StateLine {...q}>
        {watched.watching && <span class="live-dot" id="watching" title="following the object with a Kubernetes watch">watching</span>}
        {watched.deleted && <span class="badge bad">deleted just now</span>}
      </StateLine>
      <nav class="tabs">
        {tabs.map(([id, title]) => (
          <a key={id} class={tab === id ? 'on' : ''} id={`tab-${id}`} href="#" onClick={(e) => { e.preventDefault(); setParams({ tab: id === 'summary' ? undefined : id }); }}>{title}</a>
        ))}
      </nav>
      {d && !d.exists && tab !== 'history' && (
        <div class="notice" id="not-found">
          {at ? `No ${kind} ${name} existed at ${formatMoment(at)}.` : `There is no ${kind} ${name} now.`} Its history may say
          when it existed: <a href="#" onClick={(e) => { e.preventDefault(); setParams({ tab: 'history' }); }}>see the history</a>.
        </div>
      )}
      {tab === 'summary' && object && (
        <div class="detail">
          <table class="facts">
            <tbody>
              <tr><th>UID</th><td class="mono">{meta.uid}</td></tr>
              <tr><th>Created</th><td>{formatMoment(meta.creationTimestamp)} ({age(Date.parse(meta.creationTimestamp), now)} {at ? 'before' : 'ago'})</td></tr>
              {meta.deletionTimestamp && <tr><th>Deleting since</th><td>{formatMoment(meta.deletionTimestamp)}</td></tr>}
              <tr><th>Last change</th><td>{d.changedBy} at {formatMoment(d.changedAt)}, resourceVersion {meta.resourceVersion}</td></tr>
              {object.status?.phase && <tr><th>Phase</th><td><Badge value={object.status.phase} /></td></tr>}
              {object.spec?.nodeName && <tr><th>Node</th><td><ObjectLink kind="Node" name={object.spec.nodeName} /></td></tr>}
              <tr><th>Labels</th><td><Labels map={meta.labels} /></td></tr>
              <tr><th>Owners</th><td id="owners">{(meta.ownerReferences || []).length ? meta.ownerReferences.map((o) => (
                <span key={o.uid} class="ref"><ObjectLink kind={o.kind} namespace={meta.namespace} name={o.name}>{`${o.kind}/${o.name}`}</ObjectLink>{o.controller ? ' (controller)' : ''}</span>
              )) : <span class="muted">none</span>}</td></tr>
              <tr><th>Dependents</th><td id="dependents">{d.dependents?.length ? d.dependents.map((r) => (
                <span key={`${r.kind}/${r.name}`} class="ref"><ObjectLink kind={r.kind} namespace={r.namespace} name={r.name}>{`${r.kind}/${r.name}`}</ObjectLink></span>
              )) : <span class="muted">none</span>}</td></tr>
            </tbody>
          </table>
          <h2>Conditions</h2>
          <Conditions conditions={object.status?.conditions} now={now} />
          <h2>Events</h2>
          {d.events?.length ? <VirtualTable columns={eventColumns(now)} count={d.events.length} rowAt={(i) => d.events[i]} height={`${Math.min(10, d.events.length) * 28 + 4}px`} />
            : <p class="muted">No events about this object{at ? ' at that moment' : ''}.</p>}
        </div>
      )}
      {tab === 'yaml' && object && (
        <div>
          <label class="toggle"><input type="checkbox" checked={managed} onChange={(e) => setManaged(e.currentTarget.checked)} /> show managedFields</label>
          <pre class="yaml" id="object-yaml">{toYaml(object, { managedFields: managed })}</pre>
        </div>
      )}
      {tab === 'history' && <History kind={kind} namespace={namespace} name={name} params={params} at={at} />}
      <p class="muted small"><Link to="/audit" params={{ kind, namespace: namespace === '_' ? undefined : namespace, name, since: 'all' }}>This object in the audit log</Link></p>
    </section>
  );
}
