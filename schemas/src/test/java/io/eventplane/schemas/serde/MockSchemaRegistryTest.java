package io.eventplane.schemas.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.UUID;

import io.eventplane.schemas.serde.testing.Gadget;
import io.eventplane.schemas.serde.testing.Widget;
import org.junit.jupiter.api.Test;

class MockSchemaRegistryTest {

    private final String scope = UUID.randomUUID().toString();
    private final MockSchemaRegistry registry = MockSchemaRegistry.forScope(scope);

    @Test
    void aScopeIsSharedInsideTheJvmAndDroppingItStartsAfresh() {
        assertSame(registry, SchemaRegistryClient.forUrl("mock://" + scope));
        MockSchemaRegistry.dropScope(scope);
        assertNotSame(registry, MockSchemaRegistry.forScope(scope));
    }

    @Test
    void theSameSchemaHasTheSameIdInEverySubjectAndADifferentOneANewId() {
        int id = registry.register("a-value", Widget.getClassSchema());
        assertEquals(id, registry.register("b-value", Widget.getClassSchema()));
        assertEquals(id, registry.register("a-value", Widget.getClassSchema()));
        assertTrue(registry.register("c-value", Gadget.getClassSchema()) != id);
        assertEquals(1, registry.getLatest("a-value").version());
    }

    @Test
    void backwardIsTheDefaultAndRefusesAFieldWithoutDefault() {
        registry.register("w-value", Widget.getClassSchema());
        assertFalse(registry.testCompatibility("w-value", TestRecords.WIDGET_WITH_REQUIRED_SIZE));
        SchemaRegistryException e = assertThrows(SchemaRegistryException.class,
                () -> registry.register("w-value", TestRecords.WIDGET_WITH_REQUIRED_SIZE));
        assertEquals(409, e.status());
        assertTrue(e.getMessage().contains("size"), e.getMessage());
    }

    @Test
    void fullAlsoRefusesWhatOldReadersCannotRead() {
        registry.setCompatibility("f-value", CompatibilityLevel.FULL);
        registry.register("f-value", TestRecords.WIDGET_WITH_COLOR);
        // Dropping "color" is BACKWARD compatible (the reader ignores it) and FORWARD compatible (it has a default).
        assertTrue(registry.testCompatibility("f-value", Widget.getClassSchema()));
        // Dropping "note" and "color" keeps FORWARD (both have defaults); retyping "count" breaks both directions.
        assertFalse(registry.testCompatibility("f-value", TestRecords.WIDGET_WITH_STRING_COUNT));
    }

    @Test
    void transitiveLevelsCheckEveryEarlierVersion() {
        registry.setCompatibility("t-value", CompatibilityLevel.NONE);
        registry.register("t-value", TestRecords.WIDGET_WITHOUT_NOTE);
        registry.register("t-value", TestRecords.WIDGET_WITH_REQUIRED_SIZE);
        // The latest version can read itself, but not the first version, which has no "size".
        registry.setCompatibility("t-value", CompatibilityLevel.BACKWARD);
        assertTrue(registry.testCompatibility("t-value", TestRecords.WIDGET_WITH_REQUIRED_SIZE));
        registry.setCompatibility("t-value", CompatibilityLevel.BACKWARD_TRANSITIVE);
        assertFalse(registry.testCompatibility("t-value", TestRecords.WIDGET_WITH_REQUIRED_SIZE));
    }

    @Test
    void unknownIdsAndSubjectsAre404s() {
        assertEquals(404, assertThrows(SchemaRegistryException.class, () -> registry.getById(12345)).status());
        assertEquals(40401, assertThrows(SchemaRegistryException.class,
                () -> registry.getLatest("nothing-value")).errorCode());
    }
}
