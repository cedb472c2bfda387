package io.eventplane.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SharedClusterExtension.class)
class SharedClusterTest {

    @Test
    void everyCallerGetsTheSameRunningBrokerAndRegistry(SharedCluster cluster) {
        System.out.printf("[measure] SharedCluster: broker %d ms, registry %d ms (started concurrently)%n",
                cluster.kafka().startupDuration().toMillis(), cluster.registry().startupDuration().toMillis());
        assertSame(cluster, SharedCluster.get());
        assertTrue(cluster.kafka().isRunning());
        assertTrue(cluster.registry().isRunning());
        assertTrue(cluster.registryUrl().endsWith("/apis/ccompat/v7"));
    }

    @Test
    void createdTopicsAreListedAndCreatingThemAgainIsHarmless(SharedCluster cluster) throws Exception {
        String topic = SharedCluster.uniqueName("created");
        cluster.createTopics(3, topic);
        cluster.createTopics(topic);
        assertTrue(cluster.admin().listTopics().names().get(10, TimeUnit.SECONDS).contains(topic));
        assertEquals(3, cluster.admin().describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS)
                .get(topic).partitions().size());
    }

    @Test
    void uniqueNamesDiffer() {
        assertNotEquals(SharedCluster.uniqueName("t"), SharedCluster.uniqueName("t"));
    }
}
