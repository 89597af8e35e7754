import SQLiteNIO
import PostgresNIO
