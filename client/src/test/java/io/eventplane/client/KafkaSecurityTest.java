package io.eventplane.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaSecurityTest {

    @Test
    @DisplayName("issue 23: SASL/SSL client settings pass through from a properties file and EVENTPLANE_KAFKA_PROP_* variables")
    void passThrough(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("client.properties"),
                "security.protocol=SSL\nssl.truststore.location=/etc/ts.p12\nbootstrap.servers=ignored:1\n");
        Map<String, Object> s = KafkaSecurity.read(Map.of(KafkaSecurity.FILE, file.toString(),
                "EVENTPLANE_KAFKA_PROP_SECURITY_PROTOCOL", "SASL_SSL",
                "EVENTPLANE_KAFKA_PROP_SASL_MECHANISM", "SCRAM-SHA-512",
                "EVENTPLANE_KAFKA_BOOTSTRAP", "not-a-prop:9092"));
        assertEquals(Map.of("security.protocol", "SASL_SSL", "sasl.mechanism", "SCRAM-SHA-512",
                "ssl.truststore.location", "/etc/ts.p12"), s, "the variables win; bootstrap stays Eventplane's own");
    }
}
