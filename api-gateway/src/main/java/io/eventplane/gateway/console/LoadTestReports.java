package io.eventplane.gateway.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.gateway.wire.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The load test's reports ({@code <dir>/<run>/report.json}, as {@code eventplane loadtest} writes them) offered to the
 * console: a list with each run's parameters and summary, and each report as written. Only that one file name is
 * served, from direct subfolders of the folder: nothing else of the gateway's disk.
 */
final class LoadTestReports {
    private final Path dir;

    LoadTestReports(Path dir) {
        this.dir = dir;
    }

    ObjectNode list() {
        ObjectNode out = Json.object();
        out.put("directory", dir.toAbsolutePath().toString());
        ArrayNode items = out.putArray("items");
        if (!Files.isDirectory(dir)) {
            return out;
        }
        List<Path> runs = new ArrayList<>();
        try (Stream<Path> children = Files.list(dir)) {
            children.filter(p -> Files.isRegularFile(p.resolve("report.json"))).forEach(runs::add);
        } catch (IOException e) {
            return out;
        }
        runs.sort(null);
        for (Path run : runs) {
            ObjectNode item = items.addObject();
            item.put("name", run.getFileName().toString());
            try {
                JsonNode report = Json.MAPPER.readTree(run.resolve("report.json").toFile());
                item.set("started", report.path("started"));
                item.set("parameters", report.path("parameters"));
                item.set("summary", report.path("summary"));
            } catch (IOException e) {
                item.put("error", "unreadable: " + e.getMessage());
            }
        }
        return out;
    }

    /** The report of run {@code name}, byte for byte. */
    Optional<byte[]> report(String name) {
        if (name.isEmpty() || name.contains("/") || name.contains("\\") || name.startsWith(".")) {
            return Optional.empty();
        }
        Path file = dir.resolve(name).resolve("report.json");
        try {
            return Files.isRegularFile(file) ? Optional.of(Files.readAllBytes(file)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
