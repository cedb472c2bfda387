package io.eventplane.client.admission;

import io.eventplane.client.Commands;
import io.eventplane.client.Requests;
import io.eventplane.core.quota.QuotaUsage;
import io.eventplane.model.ResourceQuota;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Quota admission's reservations for a controller: the quota's status written through the writer at the version it
 * was read at, as {@link QuotaUsage#ADMISSION_ACTOR} (the quota controller then does not count below it while the
 * object is on its way). Without a verdict in time, or on a refusal other than a conflict, it throws
 * {@link IllegalStateException}: the create is tried again later.
 */
public final class QuotaReservationWriter implements ResourceQuotaAdmission.StatusWriter {
    private final Requests requests;
    private final Commands commands;
    private final Duration timeout;

    public QuotaReservationWriter(Requests requests, Clock clock, Duration timeout) {
        this.requests = requests;
        this.commands = new Commands(QuotaUsage.ADMISSION_ACTOR, clock);
        this.timeout = timeout;
    }

    @Override
    public boolean write(ResourceQuota quota) {
        Requests.Result r;
        try {
            r = requests.submit(commands.updateStatus(quota), timeout).get(timeout.toMillis() + 1000,
                    TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("no verdict on the quota reservation of " + quota.getMetadata().getName(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted reserving quota " + quota.getMetadata().getName(), e);
        }
        if (r.accepted()) {
            return true;
        }
        if (r.outcome().getCode() == 409 && "Conflict".equals(r.outcome().getReason())) {
            return false;
        }
        throw new IllegalStateException("quota reservation refused: " + r.outcome().getMessage());
    }
}
