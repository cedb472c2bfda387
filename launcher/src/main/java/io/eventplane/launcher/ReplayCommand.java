package io.eventplane.launcher;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.log.LogReader;
import io.eventplane.client.log.TimeTravel;
import io.eventplane.core.ResourceVersions;
import java.io.PrintStream;

/**
 * {@code eventplane replay}: rebuilds the complete state from the event log alone, in a fresh fold that shares nothing
 * with the running services, shows its progress, and proves the rebuild: it asks the API for the digest of its live
 * state and the position that state reflects, replays exactly up to that position, and compares the digests.
 * {@code --twice} replays a second time and checks that the same log gives the same digest.
 */
final class ReplayCommand {
    private ReplayCommand() {
    }

    static int run(Options options, PrintStream out, PrintStream err) throws Exception {
        EventplaneConfig config = Connection.config(options, err, "replay");
        if (config == null) {
            return 1;
        }
        JsonNode live = null;
        boolean offline = options.named().containsKey("no-verify");
        if (!offline) {
            String server = Connection.server(options, err, "replay");
            if (server == null) {
                err.println("eventplane replay: (or pass --no-verify to replay without comparing to the live state)");
                return 1;
            }
            try {
                live = Api.get(server + "/apis/eventplane.io/v1/digest", "application/json");
            } catch (Api.CallFailed e) {
                err.println("eventplane replay: cannot read the live digest: " + e.getMessage());
                return 1;
            }
            out.printf("live state: %,d objects at resourceVersion %s, %s%n", live.path("objects").asLong(),
                    live.path("resourceVersion").asText(), live.path("digest").asText());
        }
        TimeTravel.Target target = live == null ? TimeTravel.Target.END
                : TimeTravel.Target.atPosition(ResourceVersions.decode(live.path("resourceVersion").asText(),
                config.partitions()));
        String first = replay(config, target, out);
        if (options.named().containsKey("twice")) {
            String second = replay(config, target, out);
            out.println(first.equals(second) ? "deterministic: the second replay gives the same digest"
                    : "NOT DETERMINISTIC: the second replay gives " + second);
            if (!first.equals(second)) {
                return 1;
            }
        }
        if (live != null) {
            boolean same = first.equals(live.path("digest").asText());
            out.println(same ? "verified: the replayed state is identical to the live state"
                    : "MISMATCH: the replayed state differs from the live state");
            return same ? 0 : 1;
        }
        return 0;
    }

    private static String replay(EventplaneConfig config, TimeTravel.Target target, PrintStream out) {
        Progress progress = new Progress(out);
        TimeTravel.Result r = TimeTravel.fromScratch(config, target, progress);
        progress.done();
        double secs = Math.max(r.millis(), 1) / 1000.0;
        String digest = r.fold().digest();
        out.printf("replayed %,d changes of %s into %,d objects in %.2f s (%,.0f changes/s), resourceVersion %s, %s%n",
                r.changesRead(), config.topics().events(), r.fold().size(), secs, r.changesRead() / secs,
                ResourceVersions.encode(r.fold().positions()), digest);
        return digest;
    }

    /** A one-line progress display: changes read, of how many, and the rate. */
    static final class Progress implements LogReader.Progress {
        private final PrintStream out;
        private final long started = System.nanoTime();
        private boolean shown;

        Progress(PrintStream out) {
            this.out = out;
        }

        @Override
        public void report(long read, long total) {
            double secs = (System.nanoTime() - started) / 1e9;
            out.printf("\rreplaying: %,d / %,d changes (%d%%), %,.0f changes/s   ", read, total,
                    total == 0 ? 100 : read * 100 / total, secs > 0 ? read / secs : 0);
            out.flush();
            shown = true;
        }

        void done() {
            if (shown) {
                out.println();
            }
        }
    }
}
