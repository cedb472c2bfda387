package io.eventplane.gateway.auth.authz;

import io.eventplane.client.ClusterView;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.gateway.auth.UserInfo;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.rbac.PolicyRule;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Kubernetes' RBAC authorizer over the gateway's view: decisions read an {@link RbacIndex} of the roles and bindings
 * the view holds, rebuilt on the first decision after one of them changed (the view tells {@link #changed}), so a
 * request answered after a binding's create already sees it.
 */
public final class RbacAuthorizer implements Authorizer {
    static final Set<String> KINDS = Set.of(Kinds.ROLE.kind(), Kinds.CLUSTER_ROLE.kind(), Kinds.ROLE_BINDING.kind(),
            Kinds.CLUSTER_ROLE_BINDING.kind());

    private final ClusterView view;
    private final AtomicLong generation = new AtomicLong(1);
    private volatile long built;
    private volatile RbacIndex index = RbacIndex.EMPTY;

    public RbacAuthorizer(ClusterView view) {
        this.view = view;
    }

    /** Called for every change the view applies; cheap for other kinds. */
    public void changed(ObjectChanged change) {
        if (KINDS.contains(change.getKind())) {
            generation.incrementAndGet();
        }
    }

    @Override
    public Decision authorize(Attributes a) {
        return index().authorize(a);
    }

    public List<PolicyRule> rulesFor(UserInfo user, String namespace) {
        return index().rulesFor(user, namespace);
    }

    List<PolicyRule> roleRules(String namespace, String name) {
        return index().roleRules(namespace, name);
    }

    private RbacIndex index() {
        long wanted = generation.get();
        if (built != wanted) {
            synchronized (this) {
                wanted = generation.get();
                if (built != wanted) {
                    index = new RbacIndex(view.objects(Kinds.ROLE.kind(), null), view.objects(Kinds.CLUSTER_ROLE.kind(), null),
                            view.objects(Kinds.ROLE_BINDING.kind(), null),
                            view.objects(Kinds.CLUSTER_ROLE_BINDING.kind(), null));
                    built = wanted;
                }
            }
        }
        return index;
    }
}
