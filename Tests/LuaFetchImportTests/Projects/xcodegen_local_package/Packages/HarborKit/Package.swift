// swift-tools-version: 5.9
import PackageDescription

let package = Package(
    name: "HarborKit",
    products: [
        .library(name: "HarborCore", targets: ["HarborCore"]),
    ],
    targets: [
        .target(name: "HarborCore", dependencies: ["HarborModels"]),
        .target(name: "HarborModels"),
        .testTarget(name: "HarborCoreTests", dependencies: ["HarborCore"]),
    ]
)
