package io.eventplane.core.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.Pod;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("The built-in shell of a simulated container answers as busybox sh would")
class ShellTest {
    private static final String POD = """
            apiVersion: v1
            kind: Pod
            metadata:
              name: web
              namespace: default
              annotations:
                sim.eventplane.io/exec: |
                  - {command: "nginx -v", stderr: "nginx version: nginx/1.27.0\\n"}
                  - {command: "curl *", stdout: "ok\\n", exitCode: 0}
                sim.eventplane.io/exec.app: |
                  - {command: "check", stdout: "app only\\n", exitCode: 4}
            spec:
              containers:
              - name: app
                image: nginx
                env: [{name: GREETING, value: hello world}]
                volumeMounts: [{name: config, mountPath: /etc/config}]
              volumes:
              - {name: config, configMap: {name: settings}}
            """;
    private static final Fixtures.Sources SOURCES = new Fixtures.Sources().with("""
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: settings, namespace: default}
            data: {key: value-1, other: value-2}
            """);

    private record Run(int exit, String stdout, String stderr, Duration slept) {
    }

    private static Run run(String stdin, String... argv) throws Exception {
        Pod pod = Fixtures.parse(POD, Pod.class);
        Shell shell = new Shell(ContainerEnvironment.resolve(pod, "app", SOURCES).orElseThrow(),
                ExecResponse.declared(pod, "app"));
        Fixtures.Recording io = new Fixtures.Recording(stdin);
        int exit = shell.run(Arrays.asList(argv), io);
        return new Run(exit, io.stdout(), io.stderr(), io.slept);
    }

    static Stream<Arguments> commands() {
        return Stream.of(
                Arguments.of(List.of("echo", "hi", "there"), 0, "hi there\n", ""),
                Arguments.of(List.of("echo", "-n", "hi"), 0, "hi", ""),
                Arguments.of(List.of("hostname"), 0, "web\n", ""),
                Arguments.of(List.of("printenv", "GREETING"), 0, "hello world\n", ""),
                Arguments.of(List.of("printenv", "NOPE"), 1, "", ""),
                Arguments.of(List.of("cat", "/etc/config/key"), 0, "value-1", ""),
                Arguments.of(List.of("cat", "/etc/config/nope"), 1, "",
                        "cat: can't open '/etc/config/nope': No such file or directory\n"),
                Arguments.of(List.of("cat", "/etc/config"), 1, "", "cat: read error: Is a directory\n"),
                Arguments.of(List.of("ls", "/etc/config"), 0, "key\nother\n", ""),
                Arguments.of(List.of("ls", "/nope"), 1, "", "ls: /nope: No such file or directory\n"),
                Arguments.of(List.of("sh", "-c", "exit 3"), 3, "", ""),
                Arguments.of(List.of("sh", "-c", "echo $GREETING; echo \"${GREETING}!\"; echo '$GREETING'"), 0,
                        "hello world\nhello world!\n$GREETING\n", ""),
                Arguments.of(List.of("sh", "-c", "false && echo no; true || echo no; false || echo yes"), 0,
                        "yes\n", ""),
                Arguments.of(List.of("sh", "-c", "missing-tool --help"), 127, "",
                        "sh: missing-tool: not found\n"),
                Arguments.of(List.of("sh", "-c", "missing-tool; echo $?"), 0, "127\n",
                        "sh: missing-tool: not found\n"),
                Arguments.of(List.of("foo"), 127, "", "sh: foo: not found\n"),
                Arguments.of(List.of("sh", "-c", "cat /etc/config/key | base64"), 0, "dmFsdWUtMQ==\n", ""),
                Arguments.of(List.of("sh", "-c", "echo 'unterminated"), 2, "",
                        "sh: syntax error: unterminated quoted string\n"),
                Arguments.of(List.of("nginx", "-v"), 0, "", "nginx version: nginx/1.27.0\n"),
                Arguments.of(List.of("sh", "-c", "curl -s http://x"), 0, "ok\n", ""),
                Arguments.of(List.of("check"), 4, "app only\n", ""),
                Arguments.of(List.of("ps"), 0, "PID   USER     TIME  COMMAND\n    1 root      0:00 /bin/sh\n", ""));
    }

    @ParameterizedTest(name = "{0} -> exit {1}")
    @MethodSource("commands")
    @DisplayName("commands, scripts and declared responses")
    void command(List<String> argv, int exit, String stdout, String stderr) throws Exception {
        Run r = run("", argv.toArray(String[]::new));
        assertEquals(stdout, r.stdout());
        assertEquals(stderr, r.stderr());
        assertEquals(exit, r.exit());
    }

    @Test
    @DisplayName("cat without a file copies stdin; sh without -c runs the lines it reads")
    void stdin() throws Exception {
        assertEquals("piped\ninput", run("piped\ninput", "cat").stdout());
        Run shell = run("echo one\nhostname\nexit 5\necho never\n", "sh");
        assertEquals("one\nweb\n", shell.stdout());
        assertEquals(5, shell.exit());
    }

    @Test
    @DisplayName("sleep waits the time it is given")
    void sleep() throws Exception {
        assertEquals(Duration.ofMillis(1500), run("", "sh", "-c", "sleep 1.5; echo done").slept());
    }

    @Test
    @DisplayName("tar cf - of a mounted file: a ustar archive without the leading slash (what kubectl cp reads)")
    void tar() throws Exception {
        Run r = run("", "tar", "cf", "-", "/etc/config/key");
        byte[] archive = r.stdout().getBytes(StandardCharsets.ISO_8859_1);
        assertEquals("tar: removing leading '/' from member names\n", r.stderr());
        byte[] bytes = runBytes("tar", "cf", "-", "/etc/config/key");
        assertEquals("etc/config/key", new String(bytes, 0, 14, StandardCharsets.US_ASCII));
        assertEquals("ustar", new String(bytes, 257, 5, StandardCharsets.US_ASCII));
        assertEquals("value-1", new String(bytes, 512, 7, StandardCharsets.US_ASCII));
        assertEquals(512 * 4, bytes.length);
        assertTrue(archive.length > 0);
    }

    private static byte[] runBytes(String... argv) throws Exception {
        Pod pod = Fixtures.parse(POD, Pod.class);
        Shell shell = new Shell(ContainerEnvironment.resolve(pod, "app", SOURCES).orElseThrow(), List.of());
        Fixtures.Recording io = new Fixtures.Recording("");
        shell.run(Arrays.asList(argv), io);
        return io.out.toByteArray();
    }
}
