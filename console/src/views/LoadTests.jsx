import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Link } from '../components/common.jsx';
import { consoleUrl, getJSON } from '../lib/api.js';
import { usePainted } from '../lib/query.js';
import { navigate } from '../lib/router.js';
import { formatMoment } from '../lib/time.js';

const COLOURS = ['#2563eb', '#16a34a', '#f59e0b', '#dc2626', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#6b7280'];
let opened = null; // a report.json opened from the user's disk

/** One uPlot chart; series: [{ label, values }] over xs (seconds). */
function Chart({ title, xs, series, yLabel, id }) {
  const box = useRef(null);
  useEffect(() => {
    const width = Math.max(320, Math.min(box.current.clientWidth || 600, 760));
    const plot = new uPlot({
      title, width, height: 240,
      scales: { x: { time: false } },
      axes: [{ label: 'seconds' }, { label: yLabel, size: 60 }],
      series: [{ label: 't' }, ...series.map((s, i) => ({ label: s.label, stroke: COLOURS[i % COLOURS.length], width: 1.5, points: { show: false } }))],
    }, [xs, ...series.map((s) => s.values)], box.current);
    return () => plot.destroy();
  }, [xs, series, title]);
  return <div class="chart" id={id} ref={box} />;
}

function Table({ rows }) {
  return (
    <table class="plain compact">
      <tbody>{rows.map(([k, v]) => <tr key={k}><th>{k}</th><td>{typeof v === 'object' ? JSON.stringify(v) : String(v)}</td></tr>)}</tbody>
    </table>
  );
}

/** Percentiles by phase as horizontal bars on one scale. */
function Latencies({ stats, unit = 'ms' }) {
  const names = Object.keys(stats || {});
  const max = Math.max(1, ...names.map((n) => stats[n].max || 0));
  return (
    <table class="plain latencies">
      <thead><tr><th /><th>count</th><th>p50</th><th>p90</th><th>p99</th><th>max</th><th class="wide" /></tr></thead>
      <tbody>
        {names.map((n) => {
          const s = stats[n];
          return (
            <tr key={n}>
              <th>{n}</th><td>{s.count}</td><td>{Math.round(s.p50)}</td><td>{Math.round(s.p90)}</td><td>{Math.round(s.p99)}</td><td>{Math.round(s.max)}</td>
              <td class="wide">
                <div class="pbar">
                  <i class="p99" style={{ width: `${(100 * s.p99) / max}%` }} />
                  <i class="p90" style={{ width: `${(100 * s.p90) / max}%` }} />
                  <i class="p50" style={{ width: `${(100 * s.p50) / max}%` }} />
                </div>
              </td>
            </tr>
          );
        })}
      </tbody>
      <caption>{unit}; bars: p50 (dark), p90, p99 (light)</caption>
    </table>
  );
}

/** A load test's report.json: what ran, where, and its plots over time. */
export function LoadTestReport({ report }) {
  usePainted('loadtest', report);
  const samples = report.samples || [];
  const xs = samples.map((s) => s.t);
  const eventsPerSecond = samples.map((s, i) => (i === 0 ? 0 : (s.eventsTotal - samples[i - 1].eventsTotal) / Math.max(1e-3, s.t - samples[i - 1].t)));
  const components = [...new Set(samples.flatMap((s) => Object.keys(s.cpuCores || {})))].sort();
  const throughput = report.schedulingThroughput?.series || [];
  return (
    <div class="report" id="loadtest-report">
      <p>Started {formatMoment(report.started)}, finished {formatMoment(report.finished)}.</p>
      <div class="cards">
        <div class="card"><h3>Summary</h3><Table rows={Object.entries(report.summary || {})} /></div>
        <div class="card"><h3>Parameters</h3><Table rows={Object.entries(report.parameters || {})} /></div>
        <div class="card"><h3>Environment</h3><Table rows={Object.entries(report.environment || {})} /></div>
      </div>
      <h2>Pod startup latency</h2>
      <Latencies stats={report.podStartupLatencyMs} />
      <h2>Over time</h2>
      <div class="charts">
        <Chart id="chart-pods" title="Pods" yLabel="pods" xs={xs} series={['created', 'scheduled', 'running'].map((k) => ({ label: k, values: samples.map((s) => s[k]) }))} />
        <Chart title="Scheduling throughput" yLabel="pods/s" xs={throughput.map((_, i) => i)} series={[{ label: 'bound per second', values: throughput }]} />
        <Chart title="Event log" yLabel="per second / changes" xs={xs} series={[{ label: 'changes/s', values: eventsPerSecond }, { label: 'writer lag', values: samples.map((s) => s.writerLag) }]} />
        <Chart title="CPU by component" yLabel="cores" xs={xs} series={components.map((c) => ({ label: c, values: samples.map((s) => (s.cpuCores || {})[c] ?? null) }))} />
        <Chart title="Heap" yLabel="MiB" xs={xs} series={[{ label: 'heap', values: samples.map((s) => s.heapMiB) }]} />
        <Chart title="Failed API calls" yLabel="calls" xs={xs} series={[{ label: 'failed (cumulative)', values: samples.map((s) => s.failedCalls) }]} />
      </div>
      <h2>API call latency</h2>
      <Latencies stats={report.apiCallLatencyMs} />
      {report.changesByKindAndType && (<><h2>Changes written to the log</h2><Table rows={Object.entries(report.changesByKindAndType)} /></>)}
    </div>
  );
}

/** The load-test reports the gateway can see, and any report.json opened from disk. */
export function LoadTests({ name }) {
  const [list, setList] = useState(null);
  const [report, setReport] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    setReport(null);
    setError(null);
    if (name === '_file') setReport(opened);
    else if (name) getJSON(consoleUrl(`loadtests/${encodeURIComponent(name)}`)).then(setReport, setError);
    else getJSON(consoleUrl('loadtests')).then(setList, setError);
  }, [name]);
  usePainted('loadtests', !name && list);
  const open = (file) => {
    file.text().then((t) => {
      opened = JSON.parse(t);
      navigate('/loadtests/_file');
    }).catch((e) => setError(new Error(`${file.name}: ${e.message}`)));
  };
  return (
    <section onDragOver={(e) => e.preventDefault()} onDrop={(e) => { e.preventDefault(); if (e.dataTransfer.files[0]) open(e.dataTransfer.files[0]); }}>
      <h1>Load tests {name && <small>{name === '_file' ? '(opened from disk)' : name}</small>}</h1>
      {error && <p class="error">{error.message}</p>}
      {!name && (
        <div>
          <p>
            Reports written by <code>eventplane loadtest</code> in <code>{list?.directory || 'loadtest-reports/'}</code>, or
            {' '}<label class="button">open a report.json<input type="file" accept=".json,application/json" hidden id="open-report" onChange={(e) => e.currentTarget.files[0] && open(e.currentTarget.files[0])} /></label> (or drop one here).
          </p>
          <table class="plain" id="loadtest-list">
            <thead><tr><th>Run</th><th>Started</th><th>Nodes</th><th>Pods</th><th>Objects</th><th>All running after</th><th>Failed calls</th></tr></thead>
            <tbody>
              {(list?.items || []).map((r) => (
                <tr key={r.name}>
                  <td><Link to={`/loadtests/${r.name}`}>{r.name}</Link></td>
                  <td>{formatMoment(r.started)}</td>
                  <td>{r.parameters?.nodes}</td><td>{r.parameters?.pods}</td><td>{r.parameters?.objects}</td>
                  <td>{r.summary?.allRunningSeconds != null ? `${r.summary.allRunningSeconds} s` : ''}</td>
                  <td>{r.summary?.failedApiCalls}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {name && !report && !error && <p class="muted">{name === '_file' ? 'Open a report.json from the list.' : 'Loading…'}</p>}
      {report && <LoadTestReport report={report} />}
    </section>
  );
}
