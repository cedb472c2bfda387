package io.eventplane.launcher;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/** {@code eventplane up}: the whole system in the foreground until Ctrl-C or SIGTERM. */
final class UpCommand {
    private UpCommand() {
    }

    static int run(Options options, PrintStream out, PrintStream err) throws Exception {
        LocalCluster.Settings settings = new LocalCluster.Settings(
                Path.of(options.get("data-dir", ".eventplane")).toAbsolutePath().normalize(),
                options.intValue("nodes", 3),
                options.intValue("port", 6443),
                options.get("bind", "127.0.0.1"),
                Boolean.parseBoolean(options.get("insecure-http", "false")),
                options.get("token-auth-file", null) == null ? null : Path.of(options.get("token-auth-file", null)),
                Boolean.parseBoolean(options.get("anonymous-auth", "false")));
        if (settings.nodes() < 0) {
            throw new Options.UsageException("--nodes must be 0 or more");
        }
        LocalCluster cluster = new LocalCluster(settings, out);
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            out.println("eventplane: stopping...");
            cluster.close();
            out.println("eventplane: stopped");
            stopped.countDown();
        }, "eventplane-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            cluster.start();
        } catch (Exception e) {
            err.println("eventplane up: " + e.getMessage());
            err.println("logs: " + settings.dataDir().resolve("logs"));
            Runtime.getRuntime().removeShutdownHook(hook);
            cluster.close();
            return 1;
        }
        cluster.printSummary();
        stopped.await();
        return 0;
    }
}
