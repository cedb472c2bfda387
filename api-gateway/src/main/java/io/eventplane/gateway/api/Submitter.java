package io.eventplane.gateway.api;

import io.eventplane.client.Commands;
import io.eventplane.gateway.auth.UserInfo;
import io.eventplane.client.Requests;
import io.eventplane.core.Keys;
import io.eventplane.core.decide.Decision;
import io.eventplane.core.decide.ObjectDecider;
import io.eventplane.core.decide.RulesRegistry;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.gateway.auth.UserInfo;
import io.eventplane.gateway.auth.authz.Authorization;
import io.eventplane.gateway.auth.authz.CertificateAdmission;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.gateway.alloc.ServiceAllocator;
import io.eventplane.log.ChangeType;
import io.eventplane.model.Service;
import io.eventplane.model.certificates.CertificateSigningRequest;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Statuses;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ObjectMeta;
import io.eventplane.log.Command;
import io.eventplane.log.DeleteOptions;
import io.eventplane.log.Preconditions;
import io.eventplane.log.Verb;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a command for one request, sends it to the writer and waits for its verdict (and for the view to show the
 * change: read-your-writes). A rejection becomes the writer's Status; no verdict in time becomes 504.
 */
final class Submitter {
    private static final Logger LOG = LoggerFactory.getLogger(Submitter.class);
    /** The writer's own decision function: a dry run (dryRun=All) is decided here, exactly, and never written. */
    private static final ObjectDecider DECIDER = new ObjectDecider(RulesRegistry.standard());
    /** The producer's max.request.size: the largest command record the gateway can send. */
    private static final long COMMAND_LIMIT = 1024 * 1024;
    private final Backend backend;
    private final Authorization authorization;
    private final CertificateAdmission certificates;

    Submitter(Backend backend, Authorization authorization) {
        this.backend = backend;
        this.authorization = authorization;
        this.certificates = new CertificateAdmission(authorization);
    }

    /** Who the log records: the user and groups, the real user behind an impersonation, the User-Agent. */
    static Commands.Actor actor(ApiRequest request) {
        UserInfo real = request.realUser();
        return new Commands.Actor(request.user().name(), request.user().groups(), real == null ? null : real.name(),
                real == null ? null : real.groups(), request.header("user-agent"));
    }

    /** The commands of one request: its user (as authenticated) and its time budget. */
    final class ForRequest {
        private final Commands commands;
        private final Duration timeout;
        private final boolean dryRun;
        private final UserInfo user;

        private ForRequest(ApiRequest request) {
            this.user = RequestUser.of(request);
            this.commands = new Commands(actor(request), backend.clock());
            this.timeout = RequestTimeouts.effective(request.param("timeout"), backend.writeTimeout());
            this.dryRun = DryRun.requested(request);
        }

        Requests.Result put(Verb verb, KindInfo kind, String namespace, String name, SpecificRecord object) {
            // on every write path: RBAC's registry refuses roles and bindings granting more than their writer holds,
            // NodeRestriction what a node creates for another
            authorization.checkWrite(user, verb == Verb.CREATE, kind, namespace, name, object);
            if (verb == Verb.CREATE && kind == Kinds.CERTIFICATE_SIGNING_REQUEST) {
                certificates.admitCreate(user, name, (CertificateSigningRequest) object);
                object = CertificateRequesters.stamp((CertificateSigningRequest) object, user);
            }
            if (verb == Verb.UPDATE_STATUS && kind == Kinds.CERTIFICATE_SIGNING_REQUEST) {
                CertificateSigningRequest stored = stored(kind, name);
                if (stored != null) {
                    certificates.admitStatus(user, stored, (CertificateSigningRequest) object);
                }
            }
            Command command = base(verb, kind, namespace, name).setObject(object).build();
            if (kind == Kinds.SERVICE && verb != Verb.UPDATE_STATUS) {
                return withAllocations(command);
            }
            return submit(command, kind);
        }

        /** An update through the ephemeralcontainers subresource (a Pod's spec.ephemeralContainers). */
        Requests.Result ephemeralContainers(KindInfo kind, String namespace, String name, SpecificRecord object) {
            return submit(base(Verb.UPDATE, kind, namespace, name).setObject(object)
                    .setSubresource(ObjectDecider.EPHEMERAL_CONTAINERS).build(), kind);
        }

        /** An update through the approval subresource (a CertificateSigningRequest's Approved/Denied conditions). */
        Requests.Result approval(KindInfo kind, String name, SpecificRecord object) {
            CertificateSigningRequest stored = stored(kind, name);
            if (stored != null) {
                certificates.admitApproval(user, stored);
            }
            return submit(base(Verb.UPDATE, kind, "", name).setObject(object).setSubresource(ObjectDecider.APPROVAL)
                    .build(), kind);
        }

        /** An update through the finalize subresource (a Namespace's spec.finalizers). */
        Requests.Result finalize(KindInfo kind, String name, SpecificRecord object) {
            return submit(base(Verb.UPDATE, kind, "", name).setObject(object).setSubresource(ObjectDecider.FINALIZE)
                    .build(), kind);
        }

        /**
         * The writer's decision on a command, without sending it: refuses as the writer would (invalid, exists...).
         * Admission checks the object it admitted this way before charging a quota for it.
         */
        void check(Verb verb, KindInfo kind, String namespace, String name, SpecificRecord object) {
            dryRun(base(verb, kind, namespace, name).setObject(object).build(), kind);
        }

        Requests.Result delete(KindInfo kind, String namespace, String name, Preconditions preconditions,
                               DeleteOptions options) {
            Requests.Result r = submit(base(Verb.DELETE, kind, namespace, name).setPreconditions(preconditions)
                    .setDeleteOptions(options).build(), kind);
            releaseIfDeleted(kind, r);
            return r;
        }

        /**
         * A Service create or update, as kube-apiserver's Service REST does it: decided first (nothing is allocated
         * for a Service the writer would refuse), then its cluster IP and node ports taken, then written with them.
         * What it took is given back if the writer refuses it; what it stopped using once the writer accepted it.
         */
        private Requests.Result withAllocations(Command command) {
            ObjectChanged current = backend.view().get(Keys.of(command.getKind(), command.getNamespace(),
                    command.getName())).orElse(null);
            Decision d = DECIDER.decide(command, current, current == null ? 1 : current.getResourceVersion() + 1);
            if (!d.outcome().getAccepted()) {
                throw new ApiException(Statuses.fromOutcome(d.outcome(), Kinds.SERVICE));
            }
            if (d.change().isEmpty() || d.change().get().getType() == ChangeType.DELETED) {
                Requests.Result r = submit(command, Kinds.SERVICE);
                releaseIfDeleted(Kinds.SERVICE, r);
                return r;
            }
            Service old = current == null || command.getVerb() == Verb.CREATE ? null : (Service) current.getObject();
            ServiceAllocator.Allocation allocation = backend.services().allocate(old,
                    (Service) d.change().get().getObject(), (Service) command.getObject(), dryRun);
            Requests.Result r;
            try {
                r = submit(Command.newBuilder(command).setObject(allocation.service()).build(), Kinds.SERVICE);
            } catch (ApiException e) {
                if (!dryRun && e.status().code() != 504) {
                    allocation.revert(); // refused; after a timeout the write may still apply (the repair loop settles it)
                }
                throw e;
            }
            if (!dryRun) {
                allocation.commit();
            }
            return r;
        }

        /** A Service that is gone gives back what it held. */
        private void releaseIfDeleted(KindInfo kind, Requests.Result r) {
            if (kind == Kinds.SERVICE && !dryRun && r.object() != null && r.object().getType() == ChangeType.DELETED) {
                backend.services().releaseAll((Service) r.object().getObject());
            }
        }

        Requests.Result bind(KindInfo kind, String namespace, String name, String uid, String node) {
            return submit(base(Verb.BIND, kind, namespace, name)
                    .setPreconditions(Preconditions.newBuilder().setUid(uid).build()).setNodeName(node).build(), kind);
        }

        /** The stored request the certificate plugins judge by (null: gone, the writer answers 404). */
        private CertificateSigningRequest stored(KindInfo kind, String name) {
            return backend.view().get(kind.kind(), "", name).map(c -> (CertificateSigningRequest) c.getObject())
                    .orElse(null);
        }

        private Command.Builder base(Verb verb, KindInfo kind, String namespace, String name) {
            return Command.newBuilder().setEnvelope(commands.envelope(null, null)).setVerb(verb).setKind(kind.kind())
                    .setNamespace(kind.namespaced() ? namespace : "").setName(name)
                    .setPreconditions(new Preconditions());
        }

        private Requests.Result submit(Command command, KindInfo kind) {
            if (dryRun) {
                return dryRun(command, kind);
            }
            Requests.Result result;
            try {
                result = backend.requests().submit(command, timeout).get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof TimeoutException) {
                    LOG.warn("no verdict on {} {} {}/{} within {} (request {})", command.getVerb(), kind.kind(),
                            command.getNamespace(), command.getName(), timeout, command.getEnvelope().getRequestId());
                    throw new ApiException(Statuses.timeout());
                }
                if (e.getCause() instanceof RecordTooLargeException) {
                    // The command does not fit in a record of the command log: the object is too large.
                    throw new ApiException(Statuses.tooLarge(COMMAND_LIMIT));
                }
                LOG.warn("cannot submit {} {} {}/{}: {}", command.getVerb(), kind.kind(), command.getNamespace(),
                        command.getName(), String.valueOf(e.getCause()));
                throw new ApiException(Statuses.serviceUnavailable("the event log is unavailable: "
                        + e.getCause().getMessage()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ApiException(Statuses.timeout());
            }
            if (!result.accepted()) {
                throw new ApiException(Statuses.fromOutcome(result.outcome(), kind));
            }
            if (result.object() == null) {
                throw new ApiException(Statuses.internal("the writer accepted the request but the object is gone"));
            }
            return result;
        }
    }

    /**
     * dryRun=All: the writer's decision on the view's current object (validation, defaulting, preconditions,
     * conflicts), answered as the writer would, without a write. The answer carries the stored resourceVersion.
     */
    private Requests.Result dryRun(Command command, KindInfo kind) {
        ObjectChanged current = backend.view().get(Keys.of(kind.kind(), command.getNamespace(), command.getName()))
                .orElse(null);
        long rv = current == null ? 0 : current.getResourceVersion();
        Decision d = DECIDER.decide(command, current, rv + 1);
        if (!d.outcome().getAccepted()) {
            throw new ApiException(Statuses.fromOutcome(d.outcome(), kind));
        }
        ObjectChanged change = d.change().orElse(current);
        if (change == null || change.getObject() == null) {
            throw new ApiException(Statuses.internal("the dry run left no object"));
        }
        SpecificRecord object = (SpecificRecord) change.getObject();
        ObjectMeta meta = ObjectAccess.meta(object);
        object = ObjectAccess.withMeta(object, ObjectMeta.newBuilder(meta)
                .setResourceVersion(current == null ? null : String.valueOf(current.getResourceVersion())).build());
        ObjectChanged answered = ObjectChanged.newBuilder(change).setObject(object).build();
        return new Requests.Result(d.outcome(), answered);
    }

    ForRequest forRequest(ApiRequest request) {
        return new ForRequest(request);
    }
}
