/// A name for a stage of the pipeline, used when it throws.
protocol StageNamed {
    var stageName: String { get }
}

func stageName(of stage: Any) -> String {
    (stage as? any StageNamed)?.stageName ?? String(reflecting: type(of: stage))
}
