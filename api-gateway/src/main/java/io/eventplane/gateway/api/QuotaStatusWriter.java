package io.eventplane.gateway.api;

import io.eventplane.client.Commands;
import io.eventplane.client.Requests;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.quota.QuotaUsage;
import io.eventplane.client.admission.ResourceQuotaAdmission;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Statuses;
import io.eventplane.model.ResourceQuota;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Quota admission's reservations: a quota's status written through the writer at the version it was read at. */
final class QuotaStatusWriter implements ResourceQuotaAdmission.StatusWriter {
    private final Backend backend;
    private final Commands commands;

    QuotaStatusWriter(Backend backend) {
        this.backend = backend;
        this.commands = new Commands(QuotaUsage.ADMISSION_ACTOR, backend.clock());
    }

    @Override
    public boolean write(ResourceQuota quota) {
        Requests.Result r;
        try {
            r = backend.requests().submit(commands.updateStatus(quota), backend.writeTimeout())
                    .get(backend.writeTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new ApiException(Statuses.timeout());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(Statuses.timeout());
        }
        if (r.accepted()) {
            return true;
        }
        if (r.outcome().getCode() == 409 && "Conflict".equals(r.outcome().getReason())) {
            return false;
        }
        throw new ApiException(Statuses.fromOutcome(r.outcome(), Kinds.RESOURCE_QUOTA));
    }
}
