package io.eventplane.nodesim;

import static io.eventplane.nodesim.ConfigReferencesTest.withReference;
import static io.eventplane.nodesim.PodRunHarness.c;
import static io.eventplane.nodesim.PodRunHarness.pod;
import static io.eventplane.nodesim.PodRunHarness.sim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.EventType;
import io.eventplane.model.Container;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.Pod;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A pod's containers and the ConfigMaps and Secrets their environment refers to, on a virtual clock. */
class PodRunReferencesTest {

    private static Container referring(String name, String source, String object, String key, boolean optional) {
        return withReference(Container.newBuilder(c(name)), source, object, key, optional).build();
    }

    private static List<String> failures(PodRunHarness h) {
        return h.events.stream().filter(e -> e.type() == EventType.Warning && e.reason().equals("Failed"))
                .map(EventNotice::message).toList();
    }

    @ParameterizedTest(name = "POD-4.2 a container whose {0} refers to an object that is {1}: {2} {3}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
        "configMapKeyRef      | present               | Running                            | -",
        "configMapKeyRef      | missing               | Waiting:CreateContainerConfigError | configmap \"app\" not found",
        "configMapKeyRef      | missing, optional     | Running                            | -",
        "configMapKeyRef      | key missing           | Waiting:CreateContainerConfigError | couldn't find key k in ConfigMap default/app",
        "configMapKeyRef      | key missing, optional | Running                            | -",
        "secretKeyRef         | present               | Running                            | -",
        "secretKeyRef         | missing               | Waiting:CreateContainerConfigError | secret \"app\" not found",
        "secretKeyRef         | missing, optional     | Running                            | -",
        "secretKeyRef         | key missing           | Waiting:CreateContainerConfigError | couldn't find key k in Secret default/app",
        "secretKeyRef         | key missing, optional | Running                            | -",
        "envFrom.configMapRef | present               | Running                            | -",
        "envFrom.configMapRef | missing               | Waiting:CreateContainerConfigError | configmap \"app\" not found",
        "envFrom.configMapRef | missing, optional     | Running                            | -",
        "envFrom.secretRef    | present               | Running                            | -",
        "envFrom.secretRef    | missing               | Waiting:CreateContainerConfigError | secret \"app\" not found",
        "envFrom.secretRef    | missing, optional     | Running                            | -",
    })
    void referenceTable(String source, String state, String expectedState, String message) {
        ConfigReferencesTest.Api api = new ConfigReferencesTest.Api();
        if (state.startsWith("present")) {
            api.configMap("app", "k", "v").secret("app", "k", "v");
        } else if (state.startsWith("key missing")) {
            api.configMap("app", "other", "v").secret("app", "other", "v");
        }
        PodRunHarness h = new PodRunHarness(pod("Always", Map.of(),
                referring("c", source, "app", "k", state.endsWith("optional"))), api.view).until(60);

        assertEquals(expectedState, h.state("c"));
        String shown = h.container("c").getState().getWaiting() == null ? null
                : h.container("c").getState().getWaiting().getMessage();
        assertEquals(message.equals("-") ? null : message, shown);
        assertEquals(message.equals("-") ? "Running" : "Pending", h.phase());
    }

    @Test
    @DisplayName("POD-4.2 a missing ConfigMap: CreateContainerConfigError after the pull, Failed \"Error: ...\" at each "
            + "try every 10 s, the pod Pending; it starts as soon as the ConfigMap appears")
    void waitsThenStarts() {
        ConfigReferencesTest.Api api = new ConfigReferencesTest.Api();
        PodRunHarness h = new PodRunHarness(pod("Always", Map.of(),
                referring("c", "configMapKeyRef", "app-config", "mode", false)), api.view).until(25);

        assertEquals("Waiting:CreateContainerConfigError", h.state("c"));
        assertEquals("configmap \"app-config\" not found", h.container("c").getState().getWaiting().getMessage());
        assertEquals("Pending", h.phase());
        assertEquals("False", h.condition("Ready"));
        assertEquals(List.of(1L), h.times("c", "Waiting:CreateContainerConfigError"), "after the 1 s pull");
        assertEquals(List.of("Error: configmap \"app-config\" not found", "Error: configmap \"app-config\" not found",
                "Error: configmap \"app-config\" not found"), failures(h), "at 1, 11 and 21 s");
        assertEquals(List.of("Pulling", "Pulled", "Failed", "Pulled", "Failed", "Pulled", "Failed"),
                h.events.stream().map(EventNotice::reason).toList(), "the image is found present at each try");
        assertEquals("spec.containers{c}", h.events.get(2).involvedObject().getFieldPath());

        api.configMap("app-config", "other", "x");
        h.until(30).referencesChanged();
        assertEquals("couldn't find key mode in ConfigMap default/app-config",
                h.container("c").getState().getWaiting().getMessage(), "the ConfigMap is there, its key is not");

        api.configMap("app-config", "mode", "fast");
        h.until(33).referencesChanged();
        assertEquals("Running", h.state("c"));
        assertEquals(List.of(33L), h.times("c", "Running"), "at once, not at the next try");
        assertEquals(0, h.container("c").getRestartCount());
        h.until(60);
        assertEquals("True", h.condition("Ready"));
    }

    @Test
    @DisplayName("POD-4.2 without a nudge, a container waiting for a Secret starts at the kubelet's next try after it appears")
    void startsAtNextTry() {
        ConfigReferencesTest.Api api = new ConfigReferencesTest.Api();
        PodRunHarness h = new PodRunHarness(pod("Always", Map.of(),
                referring("c", "envFrom.secretRef", "creds", null, false)), api.view).until(15);
        api.secret("creds", "user", "u");

        h.until(30);

        assertEquals(List.of(21L), h.times("c", "Running"));
    }

    @Test
    @DisplayName("POD-8.12 POD-4.2 an init container waiting for a Secret blocks the pod (Init, PodInitializing) and runs once it appears")
    void initContainerWaits() {
        ConfigReferencesTest.Api api = new ConfigReferencesTest.Api();
        Pod p = pod("Always", sim("run-duration.init", "2s"),
                List.of(referring("init", "secretKeyRef", "db", "password", false)), List.of(c("app")));
        PodRunHarness h = new PodRunHarness(p, api.view).until(30);

        assertEquals("Waiting:CreateContainerConfigError", h.state("init"));
        assertEquals("secret \"db\" not found", h.container("init").getState().getWaiting().getMessage());
        assertEquals("Waiting:PodInitializing", h.state("app"));
        assertEquals("False", h.condition("Initialized"));
        assertEquals("spec.initContainers{init}", h.events.stream().filter(e -> e.reason().equals("Failed"))
                .findFirst().orElseThrow().involvedObject().getFieldPath());

        api.secret("db", "password", "p");
        h.referencesChanged().until(40);

        assertEquals("Terminated:Completed(0)", h.state("init"));
        assertEquals("Running", h.state("app"));
        assertEquals("True", h.condition("Initialized"));
    }

    @Test
    @DisplayName("POD-4.2 POD-5.5 a ConfigMap deleted under a crashing container: the restart waits in "
            + "CreateContainerConfigError, the last run as lastState, restartCount unchanged until it starts again")
    void restartWaits() {
        ConfigReferencesTest.Api api = new ConfigReferencesTest.Api().configMap("app", "k", "v");
        PodRunHarness h = new PodRunHarness(pod("Always", sim("run-duration", "5s", "exit-code", "1"),
                referring("c", "configMapKeyRef", "app", "k", false)), api.view).until(3);
        assertEquals("Running", h.state("c"));
        api.remove("ConfigMap", "app");

        h.until(20);

        ContainerStatus c = h.container("c");
        assertEquals("Waiting:CreateContainerConfigError", PodRunHarness.state(c));
        assertEquals("Error", c.getLastState().getTerminated().getReason());
        assertEquals(0, c.getRestartCount());
        assertFalse(c.getReady());
        assertEquals("Running", h.phase(), "a container ran: the pod stays Running under Always");

        api.configMap("app", "k", "v");
        h.referencesChanged();

        assertEquals("Running", h.state("c"));
        assertEquals(1, h.container("c").getRestartCount());
        assertEquals("Error", h.container("c").getLastState().getTerminated().getReason());
    }

    @Test
    @DisplayName("POD-4.2 a pod deleted while its container waits for a ConfigMap stops waiting and finishes")
    void deletedWhileWaiting() {
        PodRunHarness h = new PodRunHarness(pod("Always", Map.of(),
                referring("c", "configMapKeyRef", "app", "k", false)), new ConfigReferencesTest.Api().view).until(5);
        assertTrue(h.run.waitingOnReferences());

        h.delete(30).until(10);

        assertFalse(h.run.waitingOnReferences());
        assertTrue(h.run.finished());
        assertNull(h.container("c").getState().getRunning());
    }
}
