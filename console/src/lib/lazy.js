import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** A component whose code is fetched on first render (a separate chunk), rendering nothing until it arrives. */
export function lazy(load) {
  let loaded = null;
  let pending = null;
  return function Lazy(props) {
    const [, set] = useState(0);
    useEffect(() => {
      if (loaded) return;
      pending = pending || load();
      pending.then((c) => {
        loaded = c;
        set((x) => x + 1);
      });
    }, []);
    return loaded ? h(loaded, props) : null;
  };
}
