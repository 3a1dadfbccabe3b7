package dev.mooring.api.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A column of {@code kubectl get} for the custom resource ({@code additionalPrinterColumns}). */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Repeatable(PrinterColumn.List.class)
public @interface PrinterColumn {

    /** The column's header. */
    String name();

    /** A JSON path into the object, such as {@code .spec.replicas}. */
    String jsonPath();

    /** {@code string}, {@code integer}, {@code number}, {@code boolean} or {@code date}. */
    String type() default "string";

    String description() default "";

    /** 0 shows the column by default; higher numbers only with {@code -o wide}. */
    int priority() default 0;

    /** Several columns, in order. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE)
    @interface List {
        PrinterColumn[] value();
    }
}
