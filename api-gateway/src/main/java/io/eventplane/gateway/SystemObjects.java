package io.eventplane.gateway;

import io.eventplane.client.Commands;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Requests;
import io.eventplane.core.Keys;
import io.eventplane.core.decide.SystemPriorityClasses;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.gateway.auth.authz.BootstrapPolicy;
import io.eventplane.model.Namespace;
import io.eventplane.model.ObjectMeta;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The objects every cluster has, which kube-apiserver creates when missing: the namespaces {@code default},
 * {@code kube-system}, {@code kube-public} and {@code kube-node-lease}, and the PriorityClasses
 * {@code system-node-critical} and {@code system-cluster-critical}, and RBAC's bootstrap ClusterRoles and
 * ClusterRoleBindings ({@link BootstrapPolicy}). Several gateways may race: the writer answers
 * AlreadyExists to all but one, which is fine.
 */
final class SystemObjects {
    static final List<String> NAMESPACES = List.of("default", "kube-system", "kube-public", "kube-node-lease");
    private static final Logger LOG = LoggerFactory.getLogger(SystemObjects.class);

    private SystemObjects() {
    }

    private static List<SpecificRecord> all() {
        List<SpecificRecord> out = new ArrayList<>();
        for (String name : NAMESPACES) {
            out.add(Namespace.newBuilder().setMetadata(ObjectMeta.newBuilder().setName(name).build()).build());
        }
        out.addAll(SystemPriorityClasses.all());
        out.addAll(BootstrapPolicy.all());
        return out;
    }

    private static String key(SpecificRecord o) {
        return Keys.of(Kinds.of(o).kind(), "", ObjectAccess.meta(o).getName());
    }

    static boolean present(ObjectView view) {
        return all().stream().allMatch(o -> view.get(key(o)).isPresent());
    }

    /** Creates the missing ones and waits for them; returns whether all exist afterwards. */
    static boolean ensure(ObjectView view, Requests requests, Duration timeout) {
        Commands commands = new Commands("eventplane-gateway");
        List<CompletableFuture<Requests.Result>> pending = new ArrayList<>();
        for (SpecificRecord o : all()) {
            if (view.get(key(o)).isEmpty()) {
                pending.add(requests.submit(commands.create(o), timeout));
            }
        }
        for (CompletableFuture<Requests.Result> f : pending) {
            try {
                Requests.Result r = f.get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
                if (!r.accepted() && !"AlreadyExists".equals(r.outcome().getReason())) {
                    LOG.warn("cannot create {} {}: {}", r.outcome().getKind(), r.outcome().getName(),
                            r.outcome().getMessage());
                }
            } catch (Exception e) {
                LOG.warn("creating the system objects: {}", e.toString());
                return false;
            }
        }
        return present(view) || pending.isEmpty();
    }
}
