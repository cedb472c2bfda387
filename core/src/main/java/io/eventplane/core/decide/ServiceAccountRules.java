package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.ServiceAccount;
import java.time.Instant;
import java.util.List;

/**
 * core/v1 ServiceAccount: Kubernetes validates only its metadata (a DNS subdomain name). The default ServiceAccount
 * of each namespace and token Secrets are the service account controllers' work, not the writer's.
 */
final class ServiceAccountRules implements KindRules<ServiceAccount> {

    @Override
    public ServiceAccount prepareForCreate(ServiceAccount serviceAccount, Instant now) {
        return serviceAccount;
    }

    @Override
    public List<StatusCause> validate(ServiceAccount serviceAccount) {
        return List.of();
    }
}
