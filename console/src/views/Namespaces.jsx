import { useConsoleQuery } from '../lib/query.js';

/** The namespaces of the moment shown, for filters. */
export function NamespaceSelect({ at, value, onChange }) {
  const q = useConsoleQuery('overview', {}, { at, kinds: ['Namespace'] });
  const names = q.data?.namespaces || [];
  return (
    <select id="filter-namespace" value={value || ''} onChange={(e) => onChange(e.currentTarget.value || undefined)}>
      <option value="">all namespaces</option>
      {names.map((n) => <option value={n} key={n}>{n}</option>)}
      {value && !names.includes(value) && <option value={value}>{value}</option>}
    </select>
  );
}
