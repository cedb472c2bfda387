package io.eventplane.testkit.objects;

import io.eventplane.model.StorageClass;

/** A storage.k8s.io/v1 StorageClass with a provisioner; binding mode and reclaim policy unset (the writer defaults them). */
public final class StorageClassBuilder extends MetaBuilder<StorageClassBuilder> {
    private final StorageClass.Builder sc = StorageClass.newBuilder();

    StorageClassBuilder(String name, String provisioner) {
        super(name, null);
        sc.setProvisioner(provisioner);
    }

    public StorageClassBuilder waitForFirstConsumer() {
        sc.setVolumeBindingMode("WaitForFirstConsumer");
        return this;
    }

    public StorageClassBuilder immediate() {
        sc.setVolumeBindingMode("Immediate");
        return this;
    }

    /** Delete or Retain. */
    public StorageClassBuilder reclaimPolicy(String policy) {
        sc.setReclaimPolicy(policy);
        return this;
    }

    /** Marked the default class (storageclass.kubernetes.io/is-default-class: "true"). */
    public StorageClassBuilder isDefault() {
        return annotations("storageclass.kubernetes.io/is-default-class", "true");
    }

    public StorageClass build() {
        return StorageClass.newBuilder(sc.build()).setMetadata(buildMeta()).build();
    }
}
