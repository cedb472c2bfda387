package io.eventplane.gateway.exec;

import io.eventplane.core.container.Shell;
import io.eventplane.core.container.ShellIo;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A command run by a container's built-in shell over the channel protocol (exec, or attach to a container whose
 * process is interactive): stdin from channel 0 (ended by a v5 close of channel 0 or by the connection's close),
 * stdout on 1, stderr on 2 (on 1 with a TTY, whose newlines become CR LF), then the exit Status on 3 and a close.
 */
final class ShellSession implements StreamSession {
    private static final Logger LOG = LoggerFactory.getLogger(ShellSession.class);
    private final StdinPipe stdin = new StdinPipe();
    private final Future<?> running;

    ShellSession(Shell shell, List<String> command, boolean withStdin, boolean tty, StreamSink sink,
                 ExecutorService threads) {
        InputStream in = withStdin ? stdin : InputStream.nullInputStream();
        ShellIo io = new ShellIo() {
            @Override
            public InputStream stdin() {
                return in;
            }

            @Override
            public void out(byte[] bytes) throws IOException {
                if (bytes.length > 0) {
                    sink.send(Channels.frame(Channels.STDOUT, tty ? crlf(bytes) : bytes));
                }
            }

            @Override
            public void err(byte[] bytes) throws IOException {
                if (bytes.length > 0) {
                    sink.send(Channels.frame(tty ? Channels.STDOUT : Channels.STDERR, tty ? crlf(bytes) : bytes));
                }
            }

            @Override
            public void sleep(Duration duration) throws InterruptedException {
                Thread.sleep(duration.toMillis());
            }
        };
        running = threads.submit(() -> {
            try {
                int exit = shell.run(command, io);
                sink.send(Channels.frame(Channels.ERROR, Channels.exitStatus(command, exit)));
            } catch (InterruptedException | java.io.InterruptedIOException e) {
                Thread.currentThread().interrupt(); // the client went away
            } catch (IOException | RuntimeException e) {
                LOG.debug("exec stream of {} ended: {}", command, e.toString());
            } finally {
                sink.close();
            }
        });
    }

    @Override
    public void receive(byte[] message) {
        int channel = Channels.channel(message);
        if (channel == Channels.STDIN) {
            stdin.feed(Channels.data(message));
        } else if (channel == Channels.CLOSE && message.length > 1 && message[1] == Channels.STDIN) {
            stdin.end();
        }
    }

    @Override
    public void closed() {
        stdin.end();
        running.cancel(true);
    }

    private static byte[] crlf(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        return text.replace("\r\n", "\n").replace("\n", "\r\n").getBytes(StandardCharsets.UTF_8);
    }
}
