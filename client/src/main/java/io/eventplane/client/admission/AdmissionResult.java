package io.eventplane.client.admission;

import org.apache.avro.specific.SpecificRecord;

/** What admission answers: the object to write (mutated as the plugins chose), or why it is refused. */
public record AdmissionResult(SpecificRecord object, AdmissionRefusal refusal) {
    public static AdmissionResult admitted(SpecificRecord object) {
        return new AdmissionResult(object, null);
    }

    public static AdmissionResult refused(AdmissionRefusal refusal) {
        return new AdmissionResult(null, refusal);
    }

    public boolean isRefused() {
        return refusal != null;
    }
}
