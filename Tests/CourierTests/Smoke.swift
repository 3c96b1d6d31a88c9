import Hummingbird
import Testing
