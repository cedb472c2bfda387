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
              up       [--nodes N] [--port P] [--data-dir D] [--bind HOST]
                       start broker, registry, writer, API gateway, scheduler and N simulated nodes (default 3)
                       in the foreground; Ctrl-C stops them. State lives in D (default .eventplane/).
              history  <kind>/<namespace>/<name> | <kind>/<name> [--server URL] [--data-dir D] [-o json]
                       the full event history of one object, e.g. `history pod/default/nginx`
              bench    writer [--commands N] [--latency-samples N] [--bootstrap B --registry URL]
                       measure the single writer: events/s with exactly-once on, create latency p50/p99
              bench    view [--pods 150000] [--nodes 5000]
                       measure reads: view replay rate, heap per pod, list latencies (one node's pods, a page, all)
              bench    gc [--pods 1000]
                       delete a Deployment -> ReplicaSet -> N pods in each cascade mode: time and what is left
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
