import GRDB
import RunnectKit
