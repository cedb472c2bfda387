package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.eventplane.testkit.FreePorts;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The web console in a real browser (Debian's Chromium, headless, through Selenium) against a running Eventplane
 * ({@code eventplane up} in-process: broker, registry, writer, gateway, scheduler, controllers, simulated nodes).
 * Part of {@code ./mvnw -B verify} (what CI runs): Chromium is installed with apt-get when missing (as root or
 * through {@code sudo -n}), and where it cannot be, the test fails, saying why. It is left out only when asked:
 * {@code -Dconsole.skip=true} (the console was not built) or {@code -Dconsole.browser.skip=true}. Screenshots of every
 * view go to target/console-screenshots/, and to docs/console/ with {@code -Dconsole.docs=true}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserTest {
    static final Duration WAIT = Duration.ofSeconds(90);
    static LocalCluster cluster;
    static Http http;
    static ConsolePage page;
    static HeadlessChromium chromium;
    static String server;
    static final Map<String, Double> PAINTS = new LinkedHashMap<>();

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeFalse(Boolean.getBoolean("console.skip"), "no browser test: the console was not built");
        Assumptions.assumeFalse(Boolean.getBoolean("console.browser.skip"), "no browser test: -Dconsole.browser.skip");
        HeadlessChromium.unavailable().ifPresent(why -> fail("no browser for the console's test: " + why
                + " (or leave this test out with -Dconsole.browser.skip=true)"));
        assertNotNull(ConsoleBrowserTest.class.getClassLoader().getResource("console/index.html"),
                "the console module's built files are not on the classpath");
        System.setProperty("eventplane.loadtest.reports", Path.of("..", "loadtest-reports").toAbsolutePath().toString());
        Path data = Files.createTempDirectory(Path.of("target"), "console-");
        int port = FreePorts.next();
        server = "http://127.0.0.1:" + port;
        cluster = new LocalCluster(new LocalCluster.Settings(data, 24, port, "127.0.0.1"),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        cluster.start();
        http = new Http(server);
        chromium = HeadlessChromium.start(1440, 900);
        page = new ConsolePage(chromium.driver(), server);
    }

    @AfterAll
    static void stop() {
        if (chromium != null) {
            chromium.close();
        }
        if (cluster != null) {
            cluster.close();
        }
        System.clearProperty("eventplane.loadtest.reports");
        PAINTS.forEach((view, ms) -> System.out.printf("console first paint: %-10s %6.0f ms%n", view, ms));
    }

    @Test
    @Order(1)
    @DisplayName("CON-1: the pods view updates from the change feed when a pod is created, without reloading the page")
    void liveViewShowsANewPod() throws Exception {
        PAINTS.put("pods", page.open("#/pods", "pods"));
        page.driver().executeScript("window.__sameDocument = true");
        assertEquals(201, http.post("/api/v1/namespaces/default/pods", Http.pod("live-1")).statusCode());
        page.awaitText(By.id("pods-table"), "live-1");
        http.await("/api/v1/namespaces/default/pods/live-1", Http::running, WAIT);
        page.await("the row of live-1 shows Running", () -> page.row("pods-table", "live-1").contains("Running"));
        assertEquals(Boolean.TRUE, page.driver().executeScript("return window.__sameDocument === true"),
                "the page was not reloaded");
    }

    @Test
    @Order(2)
    @DisplayName("CON-2: moving the time slider to a moment between a pod's start and its deletion shows it as it was; back to live it is gone")
    void sliderShowsADeletedPod() throws Exception {
        assertEquals(201, http.post("/api/v1/namespaces/default/pods", Http.pod("ephemeral")).statusCode());
        http.await("/api/v1/namespaces/default/pods/ephemeral", Http::running, WAIT);
        Instant running = Instant.now();
        waitUntil(running.plusSeconds(4)); // a window wide enough to hit with the slider (1 s steps)
        Instant deleting = Instant.now();
        assertEquals(200, http.send("DELETE", "/api/v1/namespaces/default/pods/ephemeral", null, null).statusCode());
        awaitGone("/api/v1/namespaces/default/pods/ephemeral");

        page.open("#/pods", "pods");
        page.awaitText(By.id("pods-table"), "live-1");
        assertFalse(page.text(By.id("pods-table")).contains("ephemeral"), "deleted, so not in the live view");

        Instant target = running.plusSeconds(2);
        page.moveSlider(target);
        page.await("the console views the past", () -> page.driver().getCurrentUrl().contains("at="));
        Instant shown = Instant.parse(page.param("at"));
        assertTrue(!shown.isBefore(running.minusSeconds(1)) && shown.isBefore(deleting),
                "the slider chose " + shown + ", between the pod running at " + running + " and its deletion at " + deleting);
        assertTrue(page.visible(By.id("past-banner")), "the past is marked as the past");
        assertEquals("PAST", page.text(By.id("time-mode")));
        page.awaitText(By.id("pods-table"), "ephemeral");
        page.screenshot("pods-past");

        page.driver().findElement(By.linkText("ephemeral")).click();
        page.awaitPainted("object");
        page.awaitText(By.id("conditions"), "Ready");
        page.driver().findElement(By.id("tab-yaml")).click();
        String yaml = page.awaitText(By.id("object-yaml"), "phase: Running");
        assertTrue(yaml.contains("name: ephemeral"), yaml);
        page.screenshot("object-past");

        page.driver().findElement(By.id("back-to-live")).click();
        page.await("live again", () -> !page.driver().getCurrentUrl().contains("at="));
        page.awaitText(By.id("not-found"), "There is no Pod ephemeral now");
    }

    @Test
    @Order(3)
    @DisplayName("CON-3: an object's history shows who changed it, and the side-by-side diff between its first and last version shows the changed image")
    void diffShowsAChangedImage() throws Exception {
        assertEquals(201, http.post("/apis/apps/v1/namespaces/default/deployments", deployment("web", "nginx:1.14.2", 6))
                .statusCode());
        http.await("/apis/apps/v1/namespaces/default/deployments/web", d -> d.path("status").path("readyReplicas").asInt() == 6, WAIT);
        assertEquals(200, http.send("PATCH", "/apis/apps/v1/namespaces/default/deployments/web",
                "application/merge-patch+json", "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"app\","
                        + "\"image\":\"nginx:1.16.1\",\"resources\":{\"requests\":{\"cpu\":\"500m\",\"memory\":\"256Mi\"}}}]}}}}")
                .statusCode());
        http.await("/apis/apps/v1/namespaces/default/deployments/web", d -> d.path("status").path("updatedReplicas").asInt() == 6
                && d.path("status").path("availableReplicas").asInt() == 6, WAIT);

        PAINTS.put("history", page.open("#/object/Deployment/default/web?tab=history", "history"));
        page.awaitText(By.id("timeline"), "system:unsecured"); // the actor of this test's requests (plain HTTP: the dev identity)
        WebElement created = page.driver().findElement(By.xpath("//table[@id='timeline']//tr[td[normalize-space()='CREATED']]"));
        WebElement first = created.findElement(By.cssSelector("input[name=a]"));
        // Selenium scrolls an element to the top edge, under the timeline's sticky header; a user would scroll it into view
        page.driver().executeScript("arguments[0].scrollIntoView({block: 'center'})", first);
        first.click();
        page.await("a diff from the first version", () -> page.driver().getCurrentUrl().contains("a="));
        List<WebElement> changed = page.driver().findElements(By.cssSelector("#diff tr.changed"));
        assertTrue(changed.stream().anyMatch(r -> r.getText().contains("nginx:1.14.2") && r.getText().contains("nginx:1.16.1")),
                "a changed line pairs the old image with the new one: " + page.text(By.id("diff")));
        assertTrue(page.text(By.id("timeline")).contains("deployment-controller"), "controllers show as actors");
        page.screenshot("history-diff");
    }

    @Test
    @Order(4)
    @DisplayName("CON-4: every view paints its data, and each is captured for the documentation")
    void everyViewPaints() throws Exception {
        PAINTS.put("overview", page.open("#/", "overview"));
        page.awaitText(By.id("card-pods"), "Running");
        page.screenshot("overview");
        PAINTS.put("nodes", page.open("#/nodes", "nodes"));
        assertEquals("24", page.text(By.id("nodes-total")));
        page.screenshot("nodes");
        PAINTS.put("workloads", page.open("#/workloads", "workloads"));
        page.awaitText(By.id("workloads-table"), "web");
        page.screenshot("workloads");
        PAINTS.put("pods", page.open("#/pods?labelSelector=app%3Dweb", "pods"));
        page.awaitText(By.id("pod-phases"), "Running");
        page.screenshot("pods");
        PAINTS.put("events", page.open("#/events", "events"));
        page.awaitText(By.id("events-table"), "Scheduled");
        page.screenshot("events");
        PAINTS.put("object", page.open("#/object/Deployment/default/web", "object"));
        page.awaitText(By.id("dependents"), "ReplicaSet/web-");
        page.awaitText(By.id("conditions"), "Available");
        page.screenshot("object");
        PAINTS.put("audit", page.open("#/audit?kind=Deployment", "audit"));
        page.awaitText(By.id("audit-table"), "web");
        page.screenshot("audit");
        PAINTS.put("loadtests", page.open("#/loadtests", "loadtests"));
        page.awaitText(By.id("loadtest-list"), "baseline-b-5000-nodes-150000-pods");
        page.driver().findElement(By.linkText("baseline-b-5000-nodes-150000-pods")).click();
        page.awaitPainted("loadtest");
        page.await("the report's plots are drawn", () -> !page.driver().findElements(By.cssSelector("#chart-pods canvas")).isEmpty());
        page.screenshot("loadtest");
        Path report = Path.of("..", "loadtest-reports", "small-100-nodes-3000-pods-deployments", "report.json").toRealPath();
        page.open("#/loadtests", "loadtests");
        page.driver().findElement(By.id("open-report")).sendKeys(report.toString());
        page.awaitText(By.id("loadtest-report"), "deployments");
    }

    static String deployment(String name, String image, int replicas) {
        return """
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"%s","labels":{"app":"%s"}},
                 "spec":{"replicas":%d,"selector":{"matchLabels":{"app":"%s"}},
                  "template":{"metadata":{"labels":{"app":"%s"}},"spec":{"containers":[{"name":"app","image":"%s",
                   "resources":{"requests":{"cpu":"500m","memory":"256Mi"}}}]}}}}
                """.formatted(name, name, replicas, name, name, image);
    }

    private static void awaitGone(String path) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (http.get(path).statusCode() != 404) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(path + " still exists after " + WAIT);
            }
            Thread.sleep(100);
        }
    }

    private static void waitUntil(Instant t) throws InterruptedException {
        long ms = Duration.between(Instant.now(), t).toMillis();
        if (ms > 0) {
            Thread.sleep(ms);
        }
    }
}
