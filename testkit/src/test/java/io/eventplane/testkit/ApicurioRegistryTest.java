package io.eventplane.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApicurioRegistryTest {

    private static final String SCHEMA_BODY =
            "{\"schema\":\"{\\\"type\\\":\\\"record\\\",\\\"name\\\":\\\"Kept\\\",\\\"namespace\\\":\\\"io.eventplane.test\\\","
                    + "\\\"fields\\\":[{\\\"name\\\":\\\"a\\\",\\\"type\\\":\\\"string\\\"}]}\"}";
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*(\\d+)");

    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void anInMemoryRegistryServesTheConfluentApiOnLoopbackAndLogsToAFile() throws Exception {
        try (ApicurioRegistry registry = ApicurioRegistry.builder().workDir(dir).build().start()) {
            System.out.printf("[measure] Apicurio Registry start (in-memory): %d ms%n",
                    registry.startupDuration().toMillis());
            assertTrue(registry.url().matches("http://127\\.0\\.0\\.1:\\d+/apis/ccompat/v7"), registry.url());
            assertEquals(200, get(registry.url() + "/subjects").statusCode());
            assertTrue(Files.size(registry.logFile()) > 0, "the process output goes to the log file");
        }
        assertFalse(Files.readString(dir.resolve("registry.log")).isEmpty());
    }

    @Test
    void aKafkaSqlRegistryKeepsSchemasAndIdsAcrossARestart() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().build().start()) {
            int id;
            try (ApicurioRegistry first = kafkaSqlRegistry(kafka, "first")) {
                System.out.printf("[measure] Apicurio Registry start (kafkasql, empty journal): %d ms%n",
                        first.startupDuration().toMillis());
                HttpResponse<String> registered = http.send(HttpRequest.newBuilder(
                                URI.create(first.url() + "/subjects/kept-value/versions"))
                        .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                        .POST(HttpRequest.BodyPublishers.ofString(SCHEMA_BODY)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, registered.statusCode(), registered.body());
                Matcher matcher = ID.matcher(registered.body());
                assertTrue(matcher.find(), registered.body());
                id = Integer.parseInt(matcher.group(1));
            }
            try (ApicurioRegistry second = kafkaSqlRegistry(kafka, "second")) {
                System.out.printf("[measure] Apicurio Registry start (kafkasql, replaying journal): %d ms%n",
                        second.startupDuration().toMillis());
                HttpResponse<String> byId = get(second.url() + "/schemas/ids/" + id);
                assertEquals(200, byId.statusCode(), byId.body());
                assertTrue(byId.body().contains("io.eventplane.test"), byId.body());
                assertTrue(get(second.url() + "/subjects").body().contains("kept-value"));
            }
        }
    }

    private ApicurioRegistry kafkaSqlRegistry(EmbeddedKafka kafka, String name) {
        return ApicurioRegistry.builder()
                .workDir(dir.resolve(name))
                .kafkaSql(kafka.bootstrapServers())
                .build()
                .start();
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
