package ${package};

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.mooring.api.admission.AdmissionDenied;
import dev.mooring.test.TestAdmissionRequest;
import org.junit.jupiter.api.Test;

/** The validator, called as the API server would, with requests built in memory. */
class ${kind}ValidatorTest {

    private final ${kind}Validator validator = new ${kind}Validator();

    @Test
    void aNewMessageIsAllowed() {
        assertDoesNotThrow(() -> validator.languageIsImmutable(TestAdmissionRequest.update(
                new ${kind}("default", "hello", "Hello", "en"), new ${kind}("default", "hello", "Hi", "en"))));
    }

    @Test
    void anotherLanguageIsDenied() {
        AdmissionDenied denied = assertThrows(AdmissionDenied.class, () -> validator.languageIsImmutable(TestAdmissionRequest.update(
                new ${kind}("default", "hello", "Hello", "en"), new ${kind}("default", "hello", "Hallo", "de"))));
        assertEquals(422, denied.code());
        assertEquals("spec.language is immutable: en cannot become de", denied.getMessage());
    }
}
