package io.eventplane.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/** Creates the log's topics when they are missing; never changes existing ones. */
public final class TopicSetup {
    private TopicSetup() {
    }

    public static void ensureTopics(EventplaneConfig config) {
        try (Admin admin = Admin.create(config.kafkaConfig())) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = new ArrayList<>();
            for (String t : config.topics().all()) {
                if (!existing.contains(t)) {
                    int partitions = config.topics().partitionedByKey(t) ? config.partitions() : 1;
                    missing.add(new NewTopic(t, partitions, (short) 1).configs(config.topics().config(t)));
                }
            }
            if (missing.isEmpty()) {
                return;
            }
            try {
                admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create the log's topics at " + config.bootstrapServers() + ": " + e, e);
        }
    }
}
