import CCurl
import CVips
