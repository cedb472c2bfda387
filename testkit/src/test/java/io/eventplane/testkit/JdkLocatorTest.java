package io.eventplane.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.junit.jupiter.api.Test;

class JdkLocatorTest {

    @Test
    void releaseVersionsParseToTheirFeatureVersion() {
        assertEquals(Optional.of(25), JdkLocator.parseFeatureVersion("25.0.1"));
        assertEquals(Optional.of(21), JdkLocator.parseFeatureVersion("21"));
        assertEquals(Optional.of(8), JdkLocator.parseFeatureVersion("1.8.0_402"));
        assertEquals(Optional.empty(), JdkLocator.parseFeatureVersion("unknown"));
    }

    @Test
    void theRunningJvmIsFoundForItsOwnVersion() {
        assertTrue(JdkLocator.find(Runtime.version().feature()).isPresent());
    }

    @Test
    void freePortsAreNeverHandedOutTwice() {
        int first = FreePorts.next();
        int second = FreePorts.next();
        assertTrue(first > 0 && second > 0 && first != second);
    }
}
