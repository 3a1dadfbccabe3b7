/**
 * What a custom resource's generated CRD needs beyond its Java types and their Jakarta Bean
 * Validation constraints: descriptions, defaults, CEL rules, list types, printer columns,
 * unknown fields. Each annotation maps to one OpenAPI v3 schema keyword of the CRD; the
 * generator fails, naming the class and field, where one cannot apply.
 */
package dev.mooring.api.crd;
