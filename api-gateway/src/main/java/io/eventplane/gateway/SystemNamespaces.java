package io.eventplane.gateway;

import io.eventplane.client.Commands;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Requests;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.Namespace;
import io.eventplane.model.ObjectMeta;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The namespaces every cluster has ({@code default}, {@code kube-system}, {@code kube-public},
 * {@code kube-node-lease}), created through the writer when the log lacks them. Several gateways may race: the writer
 * answers AlreadyExists to all but one, which is fine.
 */
final class SystemNamespaces {
    static final List<String> NAMES = List.of("default", "kube-system", "kube-public", "kube-node-lease");
    private static final Logger LOG = LoggerFactory.getLogger(SystemNamespaces.class);

    private SystemNamespaces() {
    }

    static boolean present(ObjectView view) {
        return NAMES.stream().allMatch(n -> view.get(Keys.of(Kinds.NAMESPACE.kind(), "", n)).isPresent());
    }

    /** Creates the missing ones and waits for them; returns whether all exist afterwards. */
    static boolean ensure(ObjectView view, Requests requests, Duration timeout) {
        Commands commands = new Commands("eventplane-gateway");
        List<CompletableFuture<Requests.Result>> pending = new ArrayList<>();
        for (String name : NAMES) {
            if (view.get(Keys.of(Kinds.NAMESPACE.kind(), "", name)).isEmpty()) {
                Namespace ns = Namespace.newBuilder()
                        .setMetadata(ObjectMeta.newBuilder().setName(name).build()).build();
                pending.add(requests.submit(commands.create(ns), timeout));
            }
        }
        for (CompletableFuture<Requests.Result> f : pending) {
            try {
                Requests.Result r = f.get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
                if (!r.accepted() && !"AlreadyExists".equals(r.outcome().getReason())) {
                    LOG.warn("cannot create namespace {}: {}", r.outcome().getName(), r.outcome().getMessage());
                }
            } catch (Exception e) {
                LOG.warn("creating the system namespaces: {}", e.toString());
                return false;
            }
        }
        return present(view) || pending.isEmpty();
    }
}
