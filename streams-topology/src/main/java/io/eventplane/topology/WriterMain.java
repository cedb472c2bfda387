package io.eventplane.topology;

import io.eventplane.client.EventplaneConfig;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The writer as a process of its own. Configuration from the environment (see {@link EventplaneConfig}), plus
 * {@code EVENTPLANE_STATE_DIR} (default ./.eventplane/writer-state) and {@code EVENTPLANE_COMMIT_INTERVAL_MS} (200; see {@link WriterService}).
 */
public final class WriterMain {
    private WriterMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        EventplaneConfig config = EventplaneConfig.fromEnvironment();
        Path state = Path.of(EventplaneConfig.setting("EVENTPLANE_STATE_DIR", ".eventplane/writer-state"));
        long commit = Long.parseLong(EventplaneConfig.setting("EVENTPLANE_COMMIT_INTERVAL_MS", "200"));
        WriterService writer = new WriterService(config, state, commit).start();
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            writer.close();
            done.countDown();
        }, "writer-shutdown"));
        System.out.println("eventplane writer started against " + config.bootstrapServers());
        done.await();
    }
}
