package io.eventplane.reconcile;

import io.eventplane.client.ClusterView;
import io.eventplane.client.Commands;
import io.eventplane.client.admission.AdmissionChain;
import io.eventplane.client.admission.AdmissionRequest;
import io.eventplane.client.admission.AdmissionResult;
import io.eventplane.core.Keys;
import io.eventplane.core.decide.ObjectDecider;
import io.eventplane.core.decide.RulesRegistry;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.CommandOutcome;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.avro.specific.SpecificRecord;

/**
 * The admission chain a controller's creates of pods and claims go through before they are sent, as Kubernetes'
 * controllers create through kube-apiserver: LimitRange defaults and limits, ServiceAccount, Priority, the default
 * StorageClass, and ResourceQuota, which reserves what it admits in the quota's status. A create the writer would
 * refuse anyway (invalid, a name taken by an earlier attempt) reserves nothing and is sent as it is, for the writer's
 * own verdict. In a namespace with quotas the chain runs on a thread of its own (a reservation waits for the
 * writer's verdict) and the writer's decision is tried first (a dry run), so that nothing is reserved for a create the
 * writer refuses; elsewhere it only reads the view, on the caller's thread, and the writer decides once, on send.
 */
final class CreateAdmission implements AutoCloseable {
    private static final ObjectDecider WRITER = new ObjectDecider(RulesRegistry.standard());

    private final ClusterView view;
    private final Commands commands;
    private final AdmissionChain chain;
    private ExecutorService quotaThread;

    CreateAdmission(ClusterView view, Commands commands, AdmissionChain chain) {
        this.view = view;
        this.commands = commands;
        this.chain = chain;
    }

    /** Whether creates of {@code object} are admitted here: pods and claims. */
    static boolean applies(SpecificRecord object) {
        KindInfo kind = Kinds.of(object);
        return kind == Kinds.POD || kind == Kinds.PERSISTENT_VOLUME_CLAIM;
    }

    /** The object to send, or the refusal; null when the writer would refuse the object anyway. */
    CompletableFuture<AdmissionResult> admit(SpecificRecord object) {
        AdmissionRequest request = AdmissionRequest.create(object);
        if (!chain.quotaReserves(request)) {
            // no quota to reserve in: nothing the writer's dry run would protect; the writer decides once, on send
            return CompletableFuture.completedFuture(decide(request, object, admitted -> { }));
        }
        return CompletableFuture.supplyAsync(() -> decide(request, object, this::writerCheck), quotaThread());
    }

    private AdmissionResult decide(AdmissionRequest request, SpecificRecord object,
                                   java.util.function.Consumer<SpecificRecord> writerCheck) {
        try {
            return chain.create(request, object, writerCheck);
        } catch (WriterRefuses e) {
            return null;
        }
    }

    /** The writer's decision on the admitted object, without sending it. */
    private void writerCheck(SpecificRecord admitted) {
        var command = commands.create(admitted);
        var current = view.get(Keys.of(command.getKind(), command.getNamespace(), command.getName())).orElse(null);
        CommandOutcome outcome = WRITER.decide(command, current, 0).outcome();
        if (!outcome.getAccepted()) {
            throw new WriterRefuses();
        }
    }

    private synchronized ExecutorService quotaThread() {
        if (quotaThread == null) {
            quotaThread = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "create-admission");
                t.setDaemon(true);
                return t;
            });
        }
        return quotaThread;
    }

    @Override
    public synchronized void close() {
        if (quotaThread != null) {
            quotaThread.shutdownNow();
        }
    }

    /** The writer would refuse the create itself: it is sent unadmitted, for the writer's own message. */
    private static final class WriterRefuses extends RuntimeException {
        WriterRefuses() {
            super(null, null, false, false);
        }
    }
}
