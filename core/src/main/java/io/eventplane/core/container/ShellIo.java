package io.eventplane.core.container;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;

/** Where a shell command's streams go, and how it waits (tests wait on a fake clock). */
public interface ShellIo {
    InputStream stdin();

    void out(byte[] bytes) throws IOException;

    void err(byte[] bytes) throws IOException;

    void sleep(Duration duration) throws InterruptedException;
}
