// Checks the kind and version the project was generated for (the archetype plugin checks a
// property's validationRegex only when it asks for it interactively): a wrong one removes the
// project and fails the generation, naming the property.
def properties = request.properties
def problems = []
if (!(properties.get("kind") ==~ /[A-Z][A-Za-z0-9]{0,62}/)) {
    problems << "kind '" + properties.get("kind") + "' is not a Kubernetes kind: an upper-case letter, then letters and digits (such as Backup)"
}
if (!(properties.get("crdVersion") ==~ /v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?/)) {
    problems << "crdVersion '" + properties.get("crdVersion") + "' is not a Kubernetes version (such as v1, v1alpha1, v2beta1)"
}
if (!problems.isEmpty()) {
    new File(request.outputDirectory, request.artifactId).deleteDir()
    throw new IllegalArgumentException(problems.join("; "))
}
