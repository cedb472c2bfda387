package io.eventplane.client;

import io.eventplane.client.pki.CommandCredentials;
import io.eventplane.core.decide.NodeRestriction;
import java.util.List;

/**
 * The Kubernetes identities Eventplane's own services act as, stamped on their commands as the envelope's actor and
 * groups, so the audit names them as kube-apiserver's audit would: the scheduler is {@code system:kube-scheduler};
 * each controller is its kube-controller-manager service account ({@code --use-service-account-credentials}:
 * {@code system:serviceaccount:kube-system:<controller>}); each simulated node is its kubelet,
 * {@code system:node:<name>} in {@code system:nodes} (which the writer's {@link NodeRestriction} holds to its own
 * pods, Node and Lease); node-sim's own writes are {@code system:serviceaccount:kube-system:node-sim}'s. With the
 * cluster's command secret the writer believes these only from the credential that covers them
 * ({@link CommandCredentials}).
 */
public final class ServiceIdentities {
    public static final String SCHEDULER = "system:kube-scheduler";
    public static final String CONTROLLER_NAMESPACE = "kube-system";
    private static final String AUTHENTICATED = "system:authenticated";

    private ServiceIdentities() {
    }

    public static Commands.Actor scheduler() {
        return new Commands.Actor(SCHEDULER, List.of(AUTHENTICATED), null, null, null);
    }

    /** A controller's service account in kube-system, with the groups every service account has. */
    public static Commands.Actor controller(String serviceAccount) {
        return serviceAccount("system:serviceaccount:" + CONTROLLER_NAMESPACE + ":" + serviceAccount);
    }

    private static Commands.Actor serviceAccount(String user) {
        return new Commands.Actor(user,
                List.of("system:serviceaccounts", "system:serviceaccounts:" + CONTROLLER_NAMESPACE, AUTHENTICATED),
                null, null, null);
    }

    /**
     * node-sim itself (its membership Leases, its Events): a service account of kube-system whose credential may also
     * act as any node ({@link CommandCredentials#covers}).
     */
    public static Commands.Actor nodeSim() {
        return serviceAccount(CommandCredentials.NODE_SIM);
    }

    /** A node's kubelet. */
    public static Commands.Actor node(String nodeName) {
        return new Commands.Actor(NodeRestriction.NODE_PREFIX + nodeName,
                List.of(NodeRestriction.NODES_GROUP, AUTHENTICATED), null, null, null);
    }
}
