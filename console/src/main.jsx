import { render } from 'preact';
import { PastBanner, TimeBar } from './components/TimeBar.jsx';
import { setToken, token } from './lib/api.js';
import { useFeedStatus } from './lib/live.js';
import { href, useRoute } from './lib/router.js';
import { Audit } from './views/Audit.jsx';
import { Events } from './views/Events.jsx';
import { lazy } from './lib/lazy.js';
import { Nodes } from './views/Nodes.jsx';
import { ObjectDetail } from './views/ObjectDetail.jsx';
import { Overview } from './views/Overview.jsx';
import { Pods } from './views/Pods.jsx';
import { Workloads } from './views/Workloads.jsx';
import './styles.css';

// uPlot is only needed for load-test reports: loaded when one is opened, not with every view.
const LoadTests = lazy(() => import('./views/LoadTests.jsx').then((m) => m.LoadTests));

const NAV = [['/', 'Overview'], ['/nodes', 'Nodes'], ['/workloads', 'Workloads'], ['/pods', 'Pods'], ['/events', 'Events'],
  ['/audit', 'Audit'], ['/loadtests', 'Load tests']];

window.__epNavigatedAt = 0;
window.addEventListener('hashchange', () => {
  window.__epNavigatedAt = performance.now();
});

function Header({ path, at }) {
  const feed = useFeedStatus();
  const section = `/${path.split('/')[1] || ''}`;
  return (
    <header class="top">
      <a class="brand" href={href('/')}>Eventplane</a>
      <nav>
        {NAV.map(([p, title]) => <a key={p} id={`nav-${title.toLowerCase().replace(' ', '-')}`} class={section === p ? 'on' : ''} href={href(p)}>{title}</a>)}
      </nav>
      <span class="spacer" />
      {!at && <span class={`feed ${feed}`} title={`change feed: ${feed}`}>{feed === 'live' ? '● live' : feed === 'idle' ? '' : `○ ${feed}`}</span>}
      <button type="button" class="token" title="Bearer token sent with every request (for a gateway that authenticates)"
        onClick={() => {
          const t = window.prompt('Bearer token for the API (empty to clear):', token());
          if (t !== null) {
            setToken(t.trim());
            window.location.reload();
          }
        }}>{token() ? 'token ✓' : 'token'}</button>
    </header>
  );
}

function View({ route }) {
  const { path, params } = route;
  const at = params.at;
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  switch (parts[0] || '') {
    case '': return <Overview at={at} />;
    case 'nodes': return <Nodes params={params} at={at} />;
    case 'workloads': return <Workloads params={params} at={at} />;
    case 'pods': return <Pods params={params} at={at} />;
    case 'events': return <Events params={params} at={at} />;
    case 'audit': return <Audit params={params} />;
    case 'loadtests': return <LoadTests name={parts[1]} />;
    case 'object': return <ObjectDetail key={path} kind={parts[1]} namespace={parts[2]} name={parts[3]} params={params} at={at} />;
    default: return <p>No such page: {path}</p>;
  }
}

function App() {
  const route = useRoute();
  const at = route.params.at;
  return (
    <div class={at ? 'app past' : 'app'}>
      <Header path={route.path} at={at} />
      <TimeBar at={at} />
      <PastBanner at={at} />
      <main><View route={route} /></main>
    </div>
  );
}

render(<App />, document.getElementById('app'));
