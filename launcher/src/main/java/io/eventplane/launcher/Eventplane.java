package io.eventplane.launcher;

import java.io.PrintStream;
import java.util.Arrays;

/** The {@code ./eventplane} command line. */
public final class Eventplane {
    private Eventplane() {
    }

    static final String USAGE = """
            usage: eventplane <command> [options]

            commands:
              up       [--nodes N] [--port P] [--data-dir D] [--bind HOST] [--token-auth-file CSV]
                       [--anonymous-auth] [--insecure-http]
                       start broker, registry, writer, API gateway, scheduler and N simulated nodes (default 3)
                       in the foreground; Ctrl-C stops them. State lives in D (default .eventplane/). The API is
                       TLS with a cluster CA made in D/pki; D/kubeconfig carries the CA and an admin client
                       certificate (system:masters). --insecure-http: plain HTTP, no authentication (development).
              history  <kind>/<namespace>/<name> | <kind>/<name> [--server URL] [--data-dir D] [-o json]
                       the full event history of one object, e.g. `history pod/default/nginx`
              audit    [--since T] [--until T] [--actor A] [--verb V] [--kind K] [-n NS] [--name N]
                       [--outcome accepted|rejected] [--limit N] [-o table|json|k8s] [--level L] [--policy FILE]
                       every accepted and rejected change: who, what, when, the result; T is RFC 3339 or an age (10m)
              get      <kind> [name] [-n NS | -A] --as-of <T|resourceVersion> [-o yaml|json|wide]
                       what `kubectl get` would have shown at that moment, rebuilt from the log
              diff     <kind>/<namespace>/<name> --from <T|rv> [--to <T|rv>]
                       how one object changed between two moments (default: until now)
              replay   [--twice] [--no-verify] [--bootstrap B --registry URL] [--data-dir D]
                       rebuild the whole state from the log with a progress display and compare its digest with the
                       live state's (and, with --twice, with a second replay)
              whatif   scheduler [--seed S] [--percentage-of-nodes-to-score P] [--default-spread system|none]
                       replay the recorded bindings through a changed scheduler (a sandbox that only reads the log)
                       and report how its decisions differ
              loadtest [--nodes 100] [--pods N | --pods-per-node 30] [--objects pods|deployments]
                       [--deployment-size K] [--rate PODS_PER_S] [--churn PODS_PER_S --duration 60s]
                       [--report-dir D] [--server URL --bootstrap B --registry R]
                       density and throughput test with live progress; prints pod startup latency by phase,
                       scheduling throughput and API latency, and writes report.json and report.html
              bench    writer [--commands N] [--latency-samples N] [--bootstrap B --registry URL]
                       measure the single writer: events/s with exactly-once on, create latency p50/p99
              bench    view [--pods 150000] [--nodes 5000]
                       measure reads: view replay rate, heap per pod, list latencies (one node's pods, a page, all)
              bench    console [--pods 150000] [--nodes 5000] [--rounds 3] [--rewrite]
                       measure the web console: first paint of every view in headless Chromium (live and in the
                       past), the server's answer times, scrolling a 150,000-row list, the page's memory
              bench    replay [--pods 150000] [--changes 4]
                       measure replay (changes/s) and time travel (with and without a snapshot)
              bench    scheduler [--nodes 5000] [--pods 10000] [--shape basic|anti-affinity|spread|deployment] [--paced-pods 1000] [--rate 200]
                       measure the scheduler: pods/s bound (committed to the log), decision and binding latency
              node     fail|recover <name> [--server URL] [--data-dir D]
                       make a simulated node stop heartbeating (its Lease expires) or come back
              node     pressure <name> memory|disk|pid on|off [--server URL] [--data-dir D]
                       put a simulated node under memory, disk or PID pressure (condition True, NoSchedule taint), or relieve it
              node     add [<name>] [--labels k=v,...] [--wait false] [--server URL] [--data-dir D]
                       add a simulated node to the running cluster (default name: the next node-<n>); waits until Ready
              node     remove <name> [--server URL] [--data-dir D]
                       take a simulated node away: its kubelet stops, its Node and Lease are deleted
              bench    nodesim [--nodes 5000] [--seconds 30] [--pods 4000] [--instances 1]
                       measure node-sim: CPU and heap for N nodes renewing leases, pod status transitions/s;
                       with --instances K > 1: K instances share the nodes, one crashes, the takeover time
              bench    deployment [--replicas 1000] [--nodes 100]
                       measure the controllers: time to a fully available Deployment, time to roll it to a new image
              bench    daemonset [--nodes 5000] [--max-unavailable 10%] [--max-surge 0]
                       measure the DaemonSet controller: time to one pod Ready on every node, time to roll a new image
              bench    gc [--pods 1000]
                       delete a Deployment -> ReplicaSet -> N pods in each cascade mode: time and what is left
              credentials [--secret-file F] [--data-dir D] [--name N]
                       print the Secret of the services' command credentials for the Helm chart
                       (commandCredentials.secretName), from the cluster's command secret (D/pki/commands.secret)
              help     this text
            """;

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        if (args.length == 0 || args[0].equals("help") || args[0].equals("--help") || args[0].equals("-h")) {
            out.print(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        try {
            return switch (args[0]) {
                case "up" -> UpCommand.run(Options.parse(rest), out, err);
                case "history" -> HistoryCommand.run(Options.parse(rest), out, err);
                case "bench" -> BenchCommand.run(Options.parse(rest), out, err);
                case "audit" -> AuditCommand.run(Options.parse(rest), out, err);
                case "get" -> TimeTravelCommand.get(Options.parse(rest), out, err);
                case "diff" -> TimeTravelCommand.diff(Options.parse(rest), out, err);
                case "replay" -> ReplayCommand.run(Options.parse(rest), out, err);
                case "whatif" -> WhatIfCommand.run(Options.parse(rest), out, err);
                case "loadtest" -> LoadTestCommand.run(Options.parse(rest), out, err);
                case "node" -> NodeCommand.run(Options.parse(rest), out, err);
                case "credentials" -> CredentialsCommand.run(Options.parse(rest), out, err);
                default -> {
                    err.println("eventplane: unknown command \"" + args[0] + "\"");
                    err.print(USAGE);
                    yield 2;
                }
            };
        } catch (Options.UsageException e) {
            err.println("eventplane " + args[0] + ": " + e.getMessage());
            return 2;
        }
    }
}
