import { CORE_SCHEMA, dump } from 'js-yaml';

/** An object as YAML, as kubectl get -o yaml prints it; managedFields left out unless asked for (they are noise). */
export function toYaml(object, { managedFields = false } = {}) {
  if (!object) return '';
  let o = object;
  if (!managedFields && o.metadata && o.metadata.managedFields) {
    const { managedFields: _, ...metadata } = o.metadata;
    o = { ...o, metadata };
  }
  return dump(o, { schema: CORE_SCHEMA, lineWidth: -1, noRefs: true });
}
